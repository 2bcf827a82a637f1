import PhotoCapture

/// The camera a command uses when none is named: the first V4L2 camera, else the first
/// libcamera camera, else the synthetic one made by `synthetic`, with a note on stderr saying why.
package func defaultCamera(orSynthetic synthetic: () -> CaptureDevice) -> CaptureDevice {
    let discovery = CameraDiscovery.discovery()
    if let first = discovery.devices.first(where: { $0.kind != .synthetic }) { return first }
    let why = discovery.problems.isEmpty ? "no V4L2 or libcamera camera found"
        : "no usable camera (" + discovery.problems.map(\.description).joined(separator: "; ") + ")"
    note("\(why); using the built-in synthetic camera")
    return synthetic()
}
