import Imaging

/// Finds faces in upright grey pictures. ``CascadeFaceDetector`` is the real one (OpenCV); tests
/// of the tracker, the metadata output and the framing monitor may inject their own.
public protocol FaceDetecting: Sendable {
    /// The faces in `picture`, normalised to it (origin top-left, y down).
    func detectFaces(in picture: LumaPicture) throws(FaceDetectionError) -> [NormalizedRect]
}

/// Why face detection failed.
public enum FaceDetectionError: Error, Equatable, CustomStringConvertible {
    /// The model file could not be loaded; the message is OpenCV's.
    case modelUnreadable(path: String, message: String)
    /// OpenCV failed while detecting; the message is OpenCV's.
    case detectionFailed(message: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case let .modelUnreadable(path, message): return "cannot load the face model \(path): \(message)"
        case let .detectionFailed(message): return "face detection failed: \(message)"
        }
    }
}
