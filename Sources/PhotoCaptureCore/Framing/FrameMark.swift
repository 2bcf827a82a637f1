/// The first frame that carries a change of framing: its sequence number and when its exposure
/// began (monotonic clock, nanoseconds), like the timestamp `AVCaptureDevice` hands back from
/// `setDynamicAspectRatio`.
public struct FrameMark: Sendable, Equatable {
    /// The camera's sequence number of the frame.
    public let sequence: UInt64
    /// When the frame's exposure started (CLOCK_MONOTONIC nanoseconds).
    public let timestamp: UInt64
}
