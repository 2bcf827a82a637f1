/// What a request's focus does (``ResolvedPhotoSettings/focus``), and once the lens has been set,
/// where it went.
///
/// The resolved settings a capture reports from `didCapturePhoto` on (and every photo's
/// ``CapturePhoto/resolvedSettings``) carry ``lensPosition`` and ``autoFocusResult`` as read back
/// from the camera; ``PhotoOutput/resolvedSettings(for:)`` cannot know them yet and leaves them nil.
public struct ResolvedFocus: Sendable, Equatable {
    /// The mode the request puts the camera in.
    public let mode: FocusMode
    /// For ``FocusMode/locked``: the position set, after clamping and rounding to the control's
    /// step; nil for the automatic modes.
    public let requestedLensPosition: Double?
    /// For ``FocusMode/autoFocus``: how long the scan may take.
    public let autoFocusTimeout: Duration?
    /// The lens position the camera reported once focusing was done (drivers round; an
    /// autofocus moves it); nil before capture or when the camera does not report it.
    public internal(set) var lensPosition: Double?
    /// For ``FocusMode/autoFocus``: how the scan ended; nil otherwise and before capture.
    public internal(set) var autoFocusResult: AutoFocusResult?

    init(mode: FocusMode, requestedLensPosition: Double? = nil, autoFocusTimeout: Duration? = nil) {
        self.mode = mode
        self.requestedLensPosition = requestedLensPosition
        self.autoFocusTimeout = autoFocusTimeout
    }
}
