import Imaging

/// Finds faces in upright grey pictures. ``YuNetFaceDetector`` and ``CascadeFaceDetector`` are
/// the real ones (OpenCV), ``DefaultFaceDetector`` picks between them; tests of the tracker, the
/// metadata output and the framing monitor may inject their own.
public protocol FaceDetecting: Sendable {
    /// Which detector this is, for reports: `YuNet`, `Haar alt2`, ….
    var detectorName: String { get }

    /// The box live pictures are shrunk to fit before detection: large enough for the smallest
    /// faces the detector finds reliably to stay that large in a person's usual distance.
    var analysisSize: PixelSize { get }

    /// The faces in `picture`, normalised to it (origin top-left, y down).
    func detectFaces(in picture: LumaPicture) throws(FaceDetectionError) -> [DetectedFace]
}

extension FaceDetecting {
    /// The type's name, for detectors that do not name themselves.
    public var detectorName: String { String(describing: Self.self) }

    /// 320x240: the cascades' 20-pixel window finds a face a sixteenth of the picture wide.
    public var analysisSize: PixelSize { PixelSize(width: 320, height: 240) }
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
