/// The wait of a backend that makes its frames on a timeline (synthetic, frame file, clip): a
/// frame is handed out when a sensor would have delivered it.
enum SensorCadence {
    /// Waits until `deliveryTime` (monotonic nanoseconds), or throws a timeout at once when that
    /// is further away than `timeout`; returns the nanoseconds waited.
    static func wait(until deliveryTime: UInt64, timeout: Duration) async throws(PhotoCaptureError) -> UInt64 {
        let now = MonotonicClock.now()
        guard deliveryTime > now else { return 0 }
        let wait = deliveryTime - now
        guard Duration.nanoseconds(Int64(wait)) <= timeout else {
            throw PhotoCaptureError(.frameTimeout(milliseconds: Int(timeout.seconds * 1000)))
        }
        // The timer thread wakes it, so the live pump's thread keeps it going while an app
        // blocks the cooperative pool.
        await ThreadTaskExecutor.sleep(for: .nanoseconds(Int64(wait)))
        return wait
    }
}
