
/// Why a bracket was rejected, or why the camera could not be put back afterwards
/// (``PhotoCaptureError/Code/bracket(_:)``).
public enum BracketProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// More members than ``PhotoOutput/maxBracketedCapturePhotoCount``.
    case tooManyPhotos(requested: Int, maximum: Int)
    /// The camera has no exposure-type control (bias, exposure time or gain) at all.
    case noExposureControls(device: String)
    /// A member needs a control the camera lacks (`exposure time` or `ISO/gain`).
    case controlUnavailable(device: String, control: String)
    /// Auto-exposure and manual members in one bracket (Apple's API forbids this too).
    case mixedMemberKinds
    /// The flash must be off for a bracket (as with Apple's API).
    case flashNotAllowed
    /// A value no camera can take: not finite, or a time or ISO not above 0.
    case invalidExposure(sequenceCount: Int, reason: String)
    /// A bias scales the metered value, and the camera metered 0 (or reported nothing).
    case meteringUnavailable(device: String, control: String)
    /// ``CaptureDevice/interruptBracketedCapture()`` was called: no more exposure changes.
    case interrupted
    /// Controls the bracket changed could not be set back; `error` is the first failed call's.
    case controlsNotRestored(device: String, controls: [String], error: DeviceError)

    /// One line for people.
    public var description: String {
        switch self {
        case .tooManyPhotos(let requested, let maximum):
            return "a bracket of \(requested) photos exceeds the camera's maximum of \(maximum)"
        case .noExposureControls(let device):
            return "\(device) has no exposure control (auto exposure bias, exposure time or gain): it cannot take a bracket"
        case .controlUnavailable(let device, let control):
            return "\(device) has no \(control) control, which this bracket member needs"
        case .mixedMemberKinds:
            return "a bracket takes either auto exposure members or manual members, not both"
        case .flashNotAllowed:
            return "a bracket needs the flash off"
        case .invalidExposure(let index, let reason):
            return "bracket member \(index): \(reason)"
        case .meteringUnavailable(let device, let control):
            return "\(device) metered no \(control) value to scale by the exposure bias"
        case .interrupted:
            return "bracketed capture was interrupted"
        case .controlsNotRestored(let device, let controls, let error):
            return "\(device): could not restore \(controls.joined(separator: ", ")) after the bracket: \(error)"
        }
    }
}
