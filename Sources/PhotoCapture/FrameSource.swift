import Imaging

/// Where a device's frames come from. Implementations stream continuously once started and hand
/// out the first frame whose exposure began after a given instant.
protocol FrameSource: Sendable {
    /// Starts (or restarts, when the format changes) streaming.
    func startStreaming(format: FramePixelFormat, size: PixelSize) async throws(PhotoCaptureError)
    /// Stops streaming; idempotent.
    func stopStreaming() async
    /// The first frame whose exposure started after `instant` (monotonic nanoseconds), waiting
    /// at most `timeout`.
    func frame(startedAfter instant: UInt64, timeout: Duration) async throws(PhotoCaptureError) -> Frame
}
