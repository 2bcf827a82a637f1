import Imaging

/// What a camera's stream has done so far: the evidence that a change (an aspect ratio, a zoom)
/// did not interrupt it.
public struct StreamStatistics: Sendable, Equatable {
    /// Whether the camera is streaming now.
    public var isStreaming = false
    /// Stream starts (VIDIOC_STREAMON for a V4L2 camera), restarts included.
    public var starts = 0
    /// Stream stops (VIDIOC_STREAMOFF for a V4L2 camera), the stops of restarts included.
    public var stops = 0
    /// Frames handed out for photos (a V4L2 camera's dequeued frames that were used; stale,
    /// corrupt and discarded ones are not counted).
    public var framesDelivered = 0
    /// The driver's crop of the running stream (V4L2_SEL_TGT_CROP), nil when it is not cropped.
    public var hardwareCrop: PixelRect?
    /// Frames the live stream took from the camera since the session started, used or not.
    public var framesStreamed = 0
    /// Frames consumers (video data outputs, analysis) did not get because they were busy.
    public var consumerDrops = 0

    /// No stream yet.
    public init() {}
}
