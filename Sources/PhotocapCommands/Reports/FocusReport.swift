import PhotoCapture

/// The `focus` member of a `--json` line: the mode, the lens position asked for and the one the
/// camera reported afterwards, and how a one-shot scan ended.
struct FocusReport: Encodable {
    let mode: String
    let requestedLensPosition: Double?
    let lensPosition: Double?
    let autoFocus: String?
    let autoFocusTimeoutSeconds: Double?

    init?(_ resolved: ResolvedPhotoSettings) {
        guard let focus = resolved.focus else { return nil }
        mode = focus.mode.rawValue
        requestedLensPosition = focus.requestedLensPosition
        lensPosition = focus.lensPosition
        autoFocus = focus.autoFocusResult?.rawValue
        autoFocusTimeoutSeconds = focus.autoFocusTimeout.map {
            Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18
        }
    }

    /// `, focus autoFocus (reached) at 600` for the line a shot prints without --json.
    var note: String {
        ", focus \(mode)" + (autoFocus.map { " (\($0))" } ?? "")
            + (lensPosition.map { " at \($0 == $0.rounded() ? String(Int64($0)) : String($0))" } ?? "")
    }
}
