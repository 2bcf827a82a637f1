import ArgumentParser
import PhotoCapture

/// `shoot`'s focus options: `--focus auto|manual:VALUE|once` and `--focus-timeout`.
struct FocusOptions: ParsableArguments {
    @Option(name: .customLong("focus"), help: ArgumentHelp(
        "Focus for the shot, put back afterwards: auto (continuous autofocus), manual:VALUE (the lens at VALUE in the camera's focus_absolute units, clamped to its range) or once (one autofocus scan before the photo, like rpicam's --autofocus-on-capture). Default: leave the camera's focus as it is.",
        valueName: "auto|manual:VALUE|once"))
    var mode: String?

    @Option(name: .customLong("focus-timeout"),
            help: "Seconds --focus once waits for the scan before it takes the photo anyway (default: 3).")
    var timeout: Double?

    /// The request's focus; nil without `--focus`.
    var request: FocusRequest? { try? parsed() }

    func validate() throws {
        if let timeout {
            guard timeout > 0, timeout <= 60 else { throw ValidationError("--focus-timeout must be above 0 and at most 60 seconds, got \(timeout)") }
            guard mode == "once" else { throw ValidationError("--focus-timeout goes with --focus once") }
        }
        _ = try parsed()
    }

    private func parsed() throws -> FocusRequest? {
        guard let mode else { return nil }
        switch mode {
        case "auto": return .continuous
        case "once": return .once(timeout: timeout.map { .milliseconds(Int64(($0 * 1000).rounded())) } ?? FocusRequest.defaultAutoFocusTimeout)
        default:
            guard mode.hasPrefix("manual:"), let value = Double(mode.dropFirst("manual:".count)), value.isFinite else {
                throw ValidationError("--focus must be auto, manual:VALUE (a lens position, e.g. manual:120) or once, got '\(mode)'")
            }
            return .manual(lensPosition: value)
        }
    }
}
