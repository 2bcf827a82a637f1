import FoundationEssentials
import Imaging

/// One member of a bracket: how one of its photos is exposed, modelled on Apple's
/// `AVCaptureAutoExposureBracketedStillImageSettings` and
/// `AVCaptureManualExposureBracketedStillImageSettings`.
///
/// A bracket is the list ``PhotoSettings/bracketedSettings``: every member shares the request's
/// format, size, preview and thumbnail settings and yields one photo. As with Apple's API, one
/// bracket holds members of one kind only.
public enum BracketedStillImageSettings: Sendable, Equatable, CustomStringConvertible {
    /// Automatic exposure biased by `exposureTargetBias` EV (−2 is a quarter of the metered
    /// exposure, +1 twice it).
    case autoExposure(exposureTargetBias: Double)
    /// A fixed exposure time in seconds and ISO; nil keeps the value the camera metered when
    /// the request was accepted (Apple's `AVCaptureExposureDurationCurrent`/`ISOCurrent`).
    ///
    /// ISO is the camera's sensitivity control: on the synthetic camera ISO 100 is unity gain;
    /// V4L2 gains have no standard unit, so there ISO is the gain control's own value (see
    /// <doc:BracketedCapture>).
    case manualExposure(exposureDuration: Double?, iso: Double?)

    /// Whether this is an auto-exposure member.
    public var isAutoExposure: Bool {
        if case .autoExposure = self { return true }
        return false
    }

    /// `-2 EV`, `1/100 s @ ISO 200`, `1/100 s`, `ISO 200`.
    public var description: String {
        switch self {
        case .autoExposure(let bias):
            return "\(ExposureText.bias(bias)) EV"
        case .manualExposure(let duration, let iso):
            let parts = [duration.map(ExposureText.duration), iso.map { "ISO \(ExposureText.number($0))" }].compactMap { $0 }
            return parts.isEmpty ? "current exposure" : parts.joined(separator: " @ ")
        }
    }
}

extension PhotoSettings {
    /// New settings for a bracket: one photo per member of `bracketedSettings`, all in `format`.
    public init(bracketedSettings: [BracketedStillImageSettings], format: PhotoFormat = .jpeg) {
        self.init(format: format)
        self.bracketedSettings = bracketedSettings
    }
}

/// How exposure values are written for people: `+2`, `-0.33`, `1/100 s`, `0.5 s`.
enum ExposureText {
    static func bias(_ value: Double) -> String {
        (value > 0 ? "+" : "") + number(value)
    }

    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(printf: "%.2f", rounded)
    }

    /// Below a second, as 1/N when that is within 1 % (how cameras show shutter speeds).
    static func duration(_ seconds: Double) -> String {
        if seconds < 1, seconds > 0 {
            let reciprocal = (1 / seconds).rounded()
            if abs(1 / reciprocal - seconds) <= seconds * 0.01 { return "1/\(Int(reciprocal)) s" }
        }
        return String(printf: "%g s", seconds)
    }
}
