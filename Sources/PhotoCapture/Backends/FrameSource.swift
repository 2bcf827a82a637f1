import Imaging

/// Where a device's frames come from. Implementations stream continuously once started and hand
/// out the first frame whose exposure began after a given instant.
protocol FrameSource: Sendable {
    /// Starts (or restarts, when the format changes) streaming; the first `discardingFirst`
    /// frames after a (re)start are not used, so auto exposure can settle.
    func startStreaming(format: FramePixelFormat, size: PixelSize, discardingFirst: Int) async throws(PhotoCaptureError)
    /// Stops streaming; idempotent.
    func stopStreaming() async
    /// The first frame whose exposure started after `instant` (monotonic nanoseconds), waiting
    /// at most `timeout`.
    func frame(startedAfter instant: UInt64, timeout: Duration) async throws(PhotoCaptureError) -> DeliveredFrame
    /// Whether it streams, and its starts and stops so far.
    func statistics() async -> StreamStatistics
}

/// A frame and how the source found it.
struct DeliveredFrame: Sendable {
    let frame: Frame
    let delivery: FrameDelivery
}

/// How the frame of a photo was chosen: the evidence for shutter lag and for faults the camera
/// recovered from.
public struct FrameDelivery: Sendable, Equatable {
    /// Frames that began before the request and were skipped (0 or 1 on a running stream: the
    /// photo is the next frame).
    public var staleFramesSkipped = 0
    /// Frames the driver flagged as corrupt (V4L2_BUF_FLAG_ERROR) or delivered short, skipped.
    public var corruptFramesSkipped = 0
    /// Frames the driver dropped while this request waited (sequence gaps).
    public var droppedFrames = 0
    /// Stream restarts after a fatal streaming error.
    public var streamRestarts = 0
    /// Nanoseconds from the request to the start of the frame's exposure.
    public var requestToExposureNanoseconds: UInt64 = 0
    /// Nanoseconds from the request until the frame was in hand (dequeued from the driver).
    public var requestToDeliveryNanoseconds: UInt64 = 0

    /// No skips, no restarts.
    public init() {}
}
