import Imaging

/// A face a ``FaceDetecting`` found in one picture.
public struct DetectedFace: Hashable, Sendable {
    /// Where the face is, normalised to the picture (origin top-left, y down).
    public var bounds: NormalizedRect
    /// The detector's confidence, 0...1; nil from detectors that give none (the cascades).
    public var confidence: Double?
    /// The eyes, nose tip and mouth corners, normalised like ``bounds``; nil from detectors that
    /// find none (the cascades).
    public var landmarks: FaceLandmarks?

    /// A face at `bounds`, with what the detector knows besides.
    public init(bounds: NormalizedRect, confidence: Double? = nil, landmarks: FaceLandmarks? = nil) {
        (self.bounds, self.confidence, self.landmarks) = (bounds, confidence, landmarks)
    }
}
