#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC` in nanoseconds: the clock V4L2 timestamps frames with.
enum MonotonicClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The time between frames at `framesPerSecond` (at least 1), in this clock's nanoseconds.
    static func frameInterval(framesPerSecond: Int) -> UInt64 { 1_000_000_000 / UInt64(max(framesPerSecond, 1)) }
}
