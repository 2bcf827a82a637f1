import FoundationEssentials
import ImageFiles
import PhotoCaptureCore
import PhotoCaptureV4L2

extension CaptureDevice {
    /// The cameras of this machine (V4L2 capture nodes), then the synthetic camera.
    public static func discoverDevices() -> [CaptureDevice] {
        discovery().devices
    }

    /// ``discovery(in:)-(String)`` in the folder at the `file:` URL `folder`.
    public static func discovery(in folder: URL) throws(PhotoCaptureError) -> DeviceDiscovery {
        discovery(in: try PhotoCaptureError.file(folder.filePath))
    }

    /// The V4L2 capture nodes of this machine (`/dev/video*` in number order, metadata and
    /// output nodes left out), then the synthetic camera, plus why any node was skipped.
    public static func discovery(in folder: String = "/dev") -> DeviceDiscovery {
        // The backends this module links, asked in turn; a new backend is one more entry.
        DeviceDiscovery(asking: [V4L2Backend(folder: folder)])
    }
}
