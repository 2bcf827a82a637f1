/// How a one-shot autofocus scan (``FocusRequest/once(timeout:)``) ended, as
/// V4L2_CID_AUTO_FOCUS_STATUS reported it.
public enum AutoFocusResult: String, Sendable, Equatable {
    /// The camera found focus.
    case reached
    /// The camera gave up (a flat or dark scene, say); the photo was taken where the lens stopped.
    case failed
    /// The scan was still busy when the request's timeout ran out; the photo was taken anyway.
    case timedOut
}
