import PhotoCapture

/// Why the smart framing monitor refused.
public enum SmartFramingError: Error, Equatable, CustomStringConvertible {
    /// ``SmartFramingMonitor/startMonitoring()`` with no enabled framing.
    case noEnabledFramings
    /// An enabled framing the monitor does not support.
    case unsupportedFraming(Framing)
    /// The face detector could not be made.
    case detector(FaceDetectionError)
    /// The camera refused the analysis output, for the reason the capture layer gives.
    case camera(PhotoCaptureError)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .noEnabledFramings: return "smart framing needs at least one enabled framing"
        case let .unsupportedFraming(framing): return "framing \(framing) is not supported (aspect ratios 1:1, 3:4, 4:3, 9:16, 16:9 at zoom 1, 1.5 or 2)"
        case let .detector(error): return "smart framing: \(error)"
        case let .camera(error): return "smart framing: \(error)"
        }
    }
}
