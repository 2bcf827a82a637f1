import Dispatch
import FoundationEssentials
import PhotoCapture
#if canImport(Glibc)
import Glibc
#endif

extension ShootCommand {
    /// A progress line per bracket member, on a terminal (RAW + processed: after the second photo).
    func reportProgress(of photo: CapturePhoto) {
        guard photo.bracketSettings != nil, !json, isatty(STDERR_FILENO) != 0,
              !(photo.isRawPhoto && photo.resolvedSettings.format.isProcessed) else { return }
        note("bracket member \(Self.memberNumber(photo)): \(Self.exposureSummary(photo))")
    }

    /// `2/3`: the member and how many the bracket has (RAW + processed gives two photos each).
    static func memberNumber(_ photo: CapturePhoto) -> String {
        "\(photo.sequenceCount)/\(photo.resolvedSettings.bracketedSettings.count)"
    }

    /// A bracket cut short by a vanished camera leaves its controls as the bracket set them.
    func noteUnrestoredControls(after error: PhotoCaptureError, of settings: PhotoSettings) {
        guard !settings.bracketedSettings.isEmpty, case .deviceDisconnected = error.code else { return }
        note("the camera's exposure controls could not be restored: the device is gone")
    }

    /// `-2 EV: 1/400 s, ISO 100`: the member and what the camera applied.
    static func exposureSummary(_ photo: CapturePhoto) -> String {
        guard let member = photo.bracketSettings else { return "" }
        let applied = photo.appliedExposure
        var parts: [String] = []
        if let bias = applied?.exposureTargetBias { parts.append(String(printf: "%+.2f EV", bias)) }
        if let duration = applied?.exposureDuration { parts.append(Self.shutter(duration)) }
        if let iso = applied?.iso { parts.append("ISO \(Int(iso.rounded()))") }
        return "\(member.requested) → " + (parts.isEmpty ? "applied (the camera reports no values)" : parts.joined(separator: ", "))
    }

    private static func shutter(_ seconds: Double) -> String {
        if seconds > 0, seconds < 1 {
            let reciprocal = (1 / seconds).rounded()
            if abs(1 / reciprocal - seconds) <= seconds * 0.01 { return "1/\(Int(reciprocal)) s" }
        }
        return String(printf: "%g s", seconds)
    }

    /// The output paths of a bracket's members: the request's name with `-b1`, `-b2`... (and,
    /// RAW + processed, each member's DNG beside its photo).
    func memberPaths(count: Int, index: Int?, total: Int, output: PhotoOutput, format: PhotoFormat,
                     date: Date, checks: DestinationChecks = DestinationChecks()) throws(PhotoCaptureError) -> [OutputPaths] {
        var paths: [OutputPaths] = []
        for member in 1...count {
            paths.append(try OutputPaths(output: output, requested: outputPath, format: format, withPreview: preview != nil,
                                         withRaw: rawPlus != nil, overwrite: overwrite, index: index, count: total,
                                         member: member, date: date, checks: checks))
        }
        return paths
    }
}

extension ShootCommand {
    /// `NAME=VALUE` of `--control` (checked in `validate()`).
    static func assignment(_ text: String) -> (key: String, value: String) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
    }

    /// Puts the `--control` values back; a refusal is reported, not thrown, so the shot's own
    /// outcome stands.
    func restore(_ changes: ControlChanges?) {
        do { try changes?.restore() } catch { note("\(error)") }
    }
}

/// While a bracket, a shot with `--focus` or one with `--control` runs, SIGINT and SIGTERM put
/// the camera's controls back before the process exits (130 and 143, as a shell reports a death
/// by those signals).
final class ControlInterruptHandler {
    private let sources: [any DispatchSourceSignal]

    init(camera: CaptureDevice, bracket: Bool, focus: Bool, changes: ControlChanges?) {
        let queue = DispatchQueue(label: "photocap.signals")
        sources = [(SIGINT, Int32(130)), (SIGTERM, Int32(143))].map { signalNumber, status in
            // Ignored as a signal, so it arrives only as a dispatch event.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                if bracket {
                    do {
                        try camera.interruptBracketedCapture()
                        note("interrupted: \(camera.uniqueID)'s exposure controls restored")
                    } catch {
                        note("interrupted: \(error)")
                    }
                }
                if focus {
                    do {
                        try camera.interruptFocus()
                        note("interrupted: \(camera.uniqueID)'s focus controls restored")
                    } catch {
                        note("interrupted: \(error)")
                    }
                }
                if let changes {
                    do {
                        try changes.restore()
                        note("interrupted: \(camera.uniqueID)'s --control values restored")
                    } catch {
                        note("interrupted: \(error)")
                    }
                }
                exit(status)
            }
            source.resume()
            return source
        }
    }

    /// Back to the default signal handling.
    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
