/// A camera's own controls (brightness, gain, white balance...) in neutral terms: the capability
/// behind ``CaptureDevice/controls()`` and ``CaptureDevice/setControl(_:to:)``, implemented by
/// V4L2 cameras.
package protocol CameraControls: Sendable {
    /// Every control, in the camera's order, with its current value where it has one.
    func all() throws(PhotoCaptureError) -> [CameraControl]
    /// Sets `control` to `value` and returns it as the camera left it (drivers clamp and round).
    func set(_ control: CameraControl, to value: Int64) throws(PhotoCaptureError) -> CameraControl
}
