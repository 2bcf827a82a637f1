/// Cameras found on this machine, and the device nodes that could not be used, with why.
public struct DeviceDiscovery: Sendable {
    /// V4L2 cameras in node order, then the synthetic camera.
    public let devices: [CaptureDevice]
    /// Nodes that exist but were skipped (permission denied, busy at open...).
    public let problems: [PhotoCaptureError]
}
