import CImagingKernels
import FoundationEssentials

/// The processors this process may use, read once: `activeProcessorCount` reads the cgroup's
/// files at every call (some 14 µs), and a photo asked several times.
package enum Processors {
    package static let active = ProcessInfo.processInfo.activeProcessorCount

    /// Moves the calling thread to the `index`-th processor it may use (modulo their number),
    /// and lets it run on all of them again: for the parts of one job split across threads, one
    /// part starting on each processor. Returns the processor it was moved to; nil when there is
    /// one processor or the system refused.
    ///
    /// Left to itself, the scheduler now and then started both strips of a photo on one
    /// processor, the other busy as they started (the camera's thread, a prefetch), and kept
    /// them there, taking turns, for the whole encode after the other fell idle (perf, per
    /// processor; 5 `shoot`s in 40 lost some 4 ms). Moved, a running thread stays where it is;
    /// not pinned, it can still be taken elsewhere when its processor gets busy with other work.
    /// Pinned for the whole strip instead, a `shoot` beside a busy loop on one processor took
    /// 45.1–45.3 ms against 40.0–42.4 ms moved, and 29.1 ms against 27.6 ms on an idle machine
    /// (medians of 25 and 40 interleaved runs).
    @discardableResult
    package static func moveCurrentThread(to index: Int) -> Int? {
        let processor = pc_thread_move(Int32(truncatingIfNeeded: index))
        return processor < 0 ? nil : Int(processor)
    }
}
