/// How the lens is focused, modelled on `AVCaptureDevice.FocusMode`.
public enum FocusMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The lens stays where it is put: a manual lens position (V4L2_CID_FOCUS_ABSOLUTE with
    /// V4L2_CID_FOCUS_AUTO off).
    case locked
    /// One autofocus scan, then the lens stays (V4L2_CID_AUTO_FOCUS_START, watched through
    /// V4L2_CID_AUTO_FOCUS_STATUS).
    case autoFocus
    /// The camera keeps the subject in focus by itself (V4L2_CID_FOCUS_AUTO on).
    case continuousAutoFocus

    /// `locked`, `autoFocus` or `continuousAutoFocus`.
    public var description: String { rawValue }
}
