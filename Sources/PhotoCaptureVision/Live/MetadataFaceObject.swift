import PhotoCapture

/// A face the metadata output reports, like Apple's `AVMetadataFaceObject`.
public struct MetadataFaceObject: Sendable, Hashable {
    /// Where the face is, normalised to the upright picture after the current aspect-ratio crop
    /// (origin top-left, y down); see ``MetadataCoordinates`` for photo and sensor pixels.
    public let bounds: NormalizedRect
    /// The eyes, nose tip and mouth corners, normalised like ``bounds``; nil when the detector
    /// finds none (the cascades).
    public let landmarks: FaceLandmarks?
    /// The same while the person stays in view.
    public let detectedObjectID: Int
    /// The analysed frame's exposure start (CLOCK_MONOTONIC nanoseconds), tying the face to it.
    public let timestamp: UInt64
    /// The analysed frame's sequence number.
    public let frameSequence: UInt64
}

/// The faces of one analysed frame, as ``MetadataOutput/faces()`` delivers them.
public struct FaceMetadata: Sendable, Hashable {
    /// The analysed frame's exposure start (CLOCK_MONOTONIC nanoseconds).
    public let timestamp: UInt64
    /// The analysed frame's sequence number.
    public let frameSequence: UInt64
    /// The faces confirmed and seen in this frame, oldest ID first.
    public let faces: [MetadataFaceObject]
}
