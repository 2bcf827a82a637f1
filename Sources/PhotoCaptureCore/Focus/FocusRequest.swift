/// How one request wants the lens focused (``PhotoSettings/focus``).
///
/// The camera's focus controls are set for the request and put back afterwards, as a bracket
/// puts back exposure.
public enum FocusRequest: Sendable, Equatable, CustomStringConvertible {
    /// Continuous autofocus (``FocusMode/continuousAutoFocus``).
    case continuous
    /// The lens at `lensPosition`, in the units of the camera's focus control
    /// (``FocusCapabilities/lensPosition``); a value outside its range is clamped and reported as
    /// an adjustment (``FocusMode/locked``).
    case manual(lensPosition: Double)
    /// One autofocus scan before the photo, waiting at most `timeout` for it to finish
    /// (``FocusMode/autoFocus``; rpicam's `--autofocus-on-capture`). The photo is taken whether
    /// it reached focus or not; ``ResolvedFocus/autoFocusResult`` says which.
    case once(timeout: Duration = FocusRequest.defaultAutoFocusTimeout)

    /// How long ``once(timeout:)`` waits by default: 3 seconds, more than the slowest UVC
    /// webcam's scan.
    public static let defaultAutoFocusTimeout: Duration = .seconds(3)

    /// The focus mode this request puts the camera in.
    public var mode: FocusMode {
        switch self {
        case .continuous: return .continuousAutoFocus
        case .manual: return .locked
        case .once: return .autoFocus
        }
    }

    /// `continuous`, `manual 120` or `once (timeout 3 s)`.
    public var description: String {
        switch self {
        case .continuous: return "continuous"
        case .manual(let position): return "manual \(ExposureText.number(position))"
        case .once(let timeout): return "once (timeout \(ExposureText.number(timeout.seconds)) s)"
        }
    }
}
