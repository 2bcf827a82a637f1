/// Why a request's focus was rejected, or went wrong (``PhotoCaptureError/Code/focus(_:)``).
public enum FocusProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The camera has no focus control at all (``CaptureDevice/focusCapabilities`` is nil).
    case noFocusControls(device: String)
    /// The camera has focus controls, but not for this mode; `supported` lists those it has.
    case modeUnsupported(device: String, mode: FocusMode, supported: [FocusMode])
    /// A manual lens position that is not a number.
    case invalidLensPosition(Double)
    /// A one-shot autofocus timeout that is not above 0.
    case invalidTimeout(Duration)
    /// The camera refused a focus control while focusing; `error` names the failed call.
    indirect case controlRefused(device: String, control: String, error: PhotoCaptureError)
    /// ``CaptureDevice/interruptFocus()`` was called: no more focus changes.
    case interrupted
    /// Focus controls the request changed could not be set back; `error` is the first failed
    /// call's.
    indirect case controlsNotRestored(device: String, controls: [String], error: PhotoCaptureError)

    /// One line for people.
    public var description: String {
        switch self {
        case .noFocusControls(let device):
            return "\(device) has no focus control (focus_absolute, focus_automatic_continuous or auto_focus_start): it cannot focus"
        case .modeUnsupported(let device, let mode, let supported):
            return "\(device) cannot focus in mode \(mode) (it supports: "
                + (supported.isEmpty ? "none" : supported.map(\.description).joined(separator: ", ")) + ")"
        case .invalidLensPosition(let value): return "lens position \(value) is not a number"
        case .invalidTimeout(let timeout): return "autofocus timeout \(timeout) is not above 0"
        case .controlRefused(let device, let control, let error): return "\(device) refused \(control): \(error)"
        case .interrupted: return "focusing was interrupted"
        case .controlsNotRestored(let device, let controls, let error):
            return "\(device): could not restore \(controls.joined(separator: ", ")) after focusing: \(error)"
        }
    }
}
