import FoundationEssentials
import PhotoCaptureCore
import V4L2

/// The V4L2 capture nodes of one folder (`/dev`), as discovery lists them.
package struct V4L2Backend: CameraBackend {
    /// Where the `video*` nodes are.
    package let folder: String

    /// The backend for the nodes in `folder`.
    package init(folder: String = "/dev") {
        self.folder = folder
    }

    /// The `video*` nodes in number order that capture video; metadata, output and read()-only
    /// nodes are left out, and nodes that cannot be opened are problems.
    package func discovery() -> DeviceDiscovery {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let nodes = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)) else { return nil }
            return (number, folder + "/" + name)
        }.sorted { $0.0 < $1.0 }
        var devices: [CaptureDevice] = []
        var problems: [PhotoCaptureError] = []
        for (_, path) in nodes {
            do {
                devices.append(try CaptureDevice.makeV4L2Device(path: path))
            } catch .notACaptureDevice, .streamingUnsupported {
                continue  // metadata, output and read()-only nodes are not cameras for us
            } catch {
                problems.append(PhotoCaptureError(error))
            }
        }
        return DeviceDiscovery(devices: devices, problems: problems)
    }
}
