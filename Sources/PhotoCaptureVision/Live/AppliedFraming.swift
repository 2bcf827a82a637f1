import PhotoCapture

/// A framing that auto-framing applied to the camera (see
/// ``SmartFramingMonitor/setAutoFramingEnabled(_:)``): the recommendation, where it crops the
/// whole upright picture, and the first frame shown with it.
public struct AppliedFraming: Sendable, Equatable {
    /// The framing now in effect.
    public let framing: Framing
    /// The crop, in pixels of the whole upright picture (``uprightSize``).
    public let crop: PixelRect
    /// The whole upright picture the crop is taken from.
    public let uprightSize: PixelSize
    /// The first frame whose photos and video frames have the framing (after the easing).
    public let frame: FrameMark
}
