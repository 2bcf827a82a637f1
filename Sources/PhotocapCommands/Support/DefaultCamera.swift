import PhotoCapture

/// The camera a command uses when none is named: the first V4L2 camera, else the first
/// libcamera camera. The synthetic one made by `synthetic` only when the machine has no camera
/// device at all, with a note on stderr saying so; when devices exist and none can be used, the
/// error gives each one's reason (a fake picture in place of a photo would hide it).
package func defaultCamera(orSynthetic synthetic: () -> CaptureDevice) throws(PhotoCaptureError) -> CaptureDevice {
    let discovery = CaptureDevice.discovery()
    if let first = discovery.devices.first(where: { $0.kind != .synthetic }) { return first }
    guard discovery.problems.isEmpty else {
        throw PhotoCaptureError(.noUsableCamera(problems: discovery.problems + discovery.backendProblems))
    }
    let why = ["no V4L2 or libcamera camera found"] + discovery.backendProblems.map(\.description)
    note(why.joined(separator: "; ") + "; using the built-in synthetic camera")
    return synthetic()
}
