/// Cameras found on this machine, the device nodes that could not be used, with why, and the
/// backends that could not look.
public struct DeviceDiscovery: Sendable {
    /// The cameras of each backend in turn (V4L2 cameras in node order), then the synthetic camera.
    public let devices: [CaptureDevice]
    /// Cameras that exist but were skipped (permission denied, busy at open, a stage of a
    /// pipeline...), each error naming its device.
    public let problems: [PhotoCaptureError]
    /// Backends that could not look for cameras (libcamera's shim not loaded, say), with why:
    /// cameras they would list may be missing from ``devices``.
    public let backendProblems: [PhotoCaptureError]

    /// `devices` and `problems` as found.
    package init(devices: [CaptureDevice], problems: [PhotoCaptureError], backendProblems: [PhotoCaptureError] = []) {
        self.devices = devices
        self.problems = problems
        self.backendProblems = backendProblems
    }

    /// What each backend of `backends` found, in order, then the synthetic camera.
    package init(asking backends: [any CameraBackend]) {
        let found = backends.map { $0.discovery() }
        self.init(devices: found.flatMap(\.devices) + [CaptureDevice.synthetic()], problems: found.flatMap(\.problems),
                  backendProblems: found.flatMap(\.backendProblems))
    }
}
