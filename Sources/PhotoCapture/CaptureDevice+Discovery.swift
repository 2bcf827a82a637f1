import FoundationEssentials
import ImageFiles
import PhotoCaptureCore
import PhotoCaptureLibcamera
import PhotoCaptureV4L2

extension CaptureDevice {
    /// The cameras of this machine (V4L2 capture nodes, then libcamera's cameras), then the
    /// synthetic camera.
    public static func discoverDevices() -> [CaptureDevice] {
        discovery().devices
    }

    /// ``discovery(in:)-(String)`` in the folder at the `file:` URL `folder`.
    public static func discovery(in folder: URL) throws(PhotoCaptureError) -> DeviceDiscovery {
        discovery(in: try PhotoCaptureError.file(folder.filePath))
    }

    /// The V4L2 capture nodes in `folder` (`/dev/video*` in number order, metadata and output
    /// nodes left out), then, for `/dev`, libcamera's cameras, then the synthetic camera, plus
    /// why any camera was left out.
    ///
    /// The V4L2 nodes that are stages of a media-controller pipeline (`V4L2_CAP_IO_MC`) are not
    /// offered as cameras of their own: they stream only once the pipeline is configured, which
    /// is what libcamera's camera does. Each is a ``PhotoCaptureError/Code/pipelineNode(device:libcameraCameras:)``
    /// problem naming libcamera's cameras. libcamera is reached through photocap's shim, loaded on
    /// first use; ``DeviceDiscovery/backendProblems`` says why when it could not be.
    public static func discovery(in folder: String = "/dev") -> DeviceDiscovery {
        let v4l2 = V4L2Backend(folder: folder).discovery()
        // libcamera's cameras are this machine's: a folder of other nodes has none of them.
        let libcamera = folder == "/dev" ? LibcameraBackend().discovery() : DeviceDiscovery(devices: [], problems: [])
        let libcameraIDs = libcamera.devices.map(\.uniqueID)
        var cameras: [CaptureDevice] = [], stages: [PhotoCaptureError] = []
        for device in v4l2.devices {
            if device.v4l2Details?.isPipelineNode == true {
                stages.append(PhotoCaptureError(.pipelineNode(device: device.uniqueID, libcameraCameras: libcameraIDs)))
            } else {
                cameras.append(device)
            }
        }
        return DeviceDiscovery(devices: cameras + libcamera.devices + [CaptureDevice.synthetic()],
                               problems: v4l2.problems + stages + libcamera.problems,
                               backendProblems: v4l2.backendProblems + libcamera.backendProblems)
    }
}
