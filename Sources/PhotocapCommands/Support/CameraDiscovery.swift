import PhotoCapture
import PhotoCaptureLibcamera

/// The cameras photocap's commands offer: the V4L2 capture nodes, then libcamera's cameras,
/// then the synthetic camera. Once libcamera lists a camera, the V4L2 nodes that are stages of
/// a media-controller pipeline (V4L2_CAP_IO_MC) are not offered as cameras of their own: they
/// stream only once the pipeline is configured, which is what libcamera's camera does.
///
/// The library's ``CaptureDevice/discovery(in:)`` lists V4L2 alone: the library products do
/// not link libcamera.
package enum CameraDiscovery {
    /// What the backends found, in the order above.
    package static func discovery() -> DeviceDiscovery {
        let v4l2 = CaptureDevice.discovery()
        let libcamera = LibcameraBackend().discovery()
        let hardware = v4l2.devices.filter { $0.kind != .synthetic }
        let offered = libcamera.devices.isEmpty ? hardware : hardware.filter { $0.v4l2Details?.isPipelineNode != true }
        return DeviceDiscovery(devices: offered + libcamera.devices + v4l2.devices.filter { $0.kind == .synthetic },
                               problems: v4l2.problems + libcamera.problems)
    }

    /// The camera `id` names: a V4L2 node's path (`/dev/video0`), else a libcamera camera's id.
    package static func device(_ id: String, input: Int? = nil) throws(PhotoCaptureError) -> CaptureDevice {
        id.hasPrefix("/") ? try CaptureDevice.v4l2(path: id, input: input) : try CaptureDevice.libcamera(id: id)
    }
}
