import Imaging

/// A face followed from analysis to analysis.
public struct TrackedFace: Sendable, Hashable {
    /// The same while the person stays in view (like `AVMetadataObject.detectedObjectID`).
    public let detectedObjectID: Int
    /// The latest bounds, normalised to the analysed picture.
    public var bounds: NormalizedRect
    /// The latest detection's eyes, nose tip and mouth corners, normalised like ``bounds``; nil
    /// when the detector finds none.
    public var landmarks: FaceLandmarks?
    /// When the face was last detected (seconds on the stream's clock).
    public var lastSeen: Double
    /// Whether it was detected often enough to be reported (2 of the last 3 analyses).
    public var isConfirmed: Bool
    /// Hits among the latest analyses, newest last (at most three).
    var recentHits: [Bool]
}
