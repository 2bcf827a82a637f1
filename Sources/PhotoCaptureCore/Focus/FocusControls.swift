/// The focus controls of one camera, as integers in the camera's own units (a V4L2 camera's
/// controls' units): the surface ``FocusOperation`` drives, implemented by the synthetic
/// camera's lens and by V4L2 cameras.
package protocol FocusControls: AnyObject, Sendable {
    /// The modes and the manual range.
    var capabilities: FocusCapabilities { get }
    /// Frames to let pass after the lens was set before the photo's frame (the lens moves
    /// while the next frames are exposed).
    var framesToSettle: Int { get }
    /// What the request in progress changed, for restoring; one per camera.
    var ledger: FocusLedger { get }
    /// The value of `control` now (the status is read with ``scanStatus()``).
    func value(of control: FocusControl) throws(PhotoCaptureError) -> Int64
    /// Where the one-shot scan is (``FocusControl/status``).
    func scanStatus() throws(PhotoCaptureError) -> FocusScanStatus
    /// Sets `control` (``FocusControl/start`` is a button: any value presses it).
    func set(_ control: FocusControl, to value: Int64) throws(PhotoCaptureError)
}

/// The four focus controls, named as `photocap controls` spells a V4L2 camera's
/// (V4L2_CID_FOCUS_AUTO, _FOCUS_ABSOLUTE, _AUTO_FOCUS_START, _AUTO_FOCUS_STATUS).
package enum FocusControl: String, Sendable {
    case continuous = "focus_automatic_continuous"
    case lensPosition = "focus_absolute"
    case start = "auto_focus_start"
    case status = "auto_focus_status"
}
