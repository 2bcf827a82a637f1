/// A call of the libcamera shim, as ``LibcameraError/callFailed(camera:call:reason:)`` names it.
public enum LibcameraCall: String, Hashable, Sendable {
    /// Listing the manager's cameras.
    case listCameras = "listing cameras"
    /// Listing a camera's controls.
    case listControls = "listing controls"
    /// Acquiring a camera.
    case open = "opening"
    /// Configuring its streams, allocating buffers and starting it.
    case configure = "configuring"
    /// Queueing a capture request.
    case queue = "queueing a request"
    /// Waiting for a completed request.
    case wait = "waiting for a capture"
}
