/// Cameras found on this machine, and the device nodes that could not be used, with why.
public struct DeviceDiscovery: Sendable {
    /// The cameras of each backend in turn (V4L2 cameras in node order), then the synthetic camera.
    public let devices: [CaptureDevice]
    /// Nodes that exist but were skipped (permission denied, busy at open...).
    public let problems: [PhotoCaptureError]

    /// `devices` and `problems` as found.
    package init(devices: [CaptureDevice], problems: [PhotoCaptureError]) {
        self.devices = devices
        self.problems = problems
    }

    /// What each backend of `backends` found, in order, then the synthetic camera.
    package init(asking backends: [any CameraBackend]) {
        let found = backends.map { $0.discovery() }
        self.init(devices: found.flatMap(\.devices) + [CaptureDevice.synthetic()], problems: found.flatMap(\.problems))
    }
}
