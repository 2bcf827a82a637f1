/// The wait of a backend that makes its frames on a timeline (synthetic, frame file, clip): a
/// frame is handed out when a sensor would have delivered it.
package enum SensorCadence {
    /// Waits until `deliveryTime` (monotonic nanoseconds) and returns the nanoseconds waited;
    /// when that is further away than `timeout`, waits `timeout` and throws a timeout naming
    /// `device`, as a camera's pull would (at once, the stream's pump would spin on it).
    static func wait(until deliveryTime: UInt64, timeout: Duration, device: String) async throws(PhotoCaptureError) -> UInt64 {
        let now = MonotonicClock.now()
        guard deliveryTime > now else { return 0 }
        let wait = deliveryTime - now
        guard Duration.nanoseconds(Int64(clamping: wait)) <= timeout else {
            await ThreadTaskExecutor.sleep(for: timeout)
            throw PhotoCaptureError(.frameTimeout(milliseconds: Int(timeout.seconds * 1000), device: device, frame: .next))
        }
        // The timer thread wakes it, so the live pump's thread keeps it going while an app
        // blocks the cooperative pool.
        await ThreadTaskExecutor.sleep(for: .nanoseconds(Int64(wait)))
        return wait
    }
}
