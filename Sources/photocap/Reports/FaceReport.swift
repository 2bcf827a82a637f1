import PhotoCaptureVision

/// A tracked face in the CLI's JSON: its ID, its bounds in metadata coordinates (normalised to
/// the upright picture after the current crop, origin top-left) and the analysed frame's
/// timestamp (CLOCK_MONOTONIC nanoseconds).
struct FaceReport: Encodable {
    let id: Int
    let x: Double, y: Double, width: Double, height: Double
    let timestamp: UInt64

    init(_ face: MetadataFaceObject) {
        id = face.detectedObjectID
        (x, y, width, height) = (face.bounds.x, face.bounds.y, face.bounds.width, face.bounds.height)
        timestamp = face.timestamp
    }
}
