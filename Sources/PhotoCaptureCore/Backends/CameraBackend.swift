/// A kind of camera hardware, as the core sees it: a backend's module (PhotoCaptureV4L2) lists
/// its cameras through this, and the umbrella module asks each backend it links in turn.
///
/// The rest of the seam is what a backend's cameras are made of: a backend opens a camera with a
/// factory of its own on ``CaptureDevice`` (`CaptureDevice.v4l2(path:input:)`), which wraps a
/// ``FrameSource`` (streaming, and through it the ``CameraControls``, ``ExposureControls`` and
/// ``FocusControls`` the camera has) in ``CaptureDevice``'s package initializer; its failures reach apps as ``DeviceError`` values whose cause is the backend's own error.
package protocol CameraBackend: Sendable {
    /// The backend's cameras on this machine in its own order, and what it found but could
    /// not use, with why.
    func discovery() -> DeviceDiscovery
}
