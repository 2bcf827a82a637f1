import PhotoCaptureCore

/// libcamera's cameras, as discovery lists them.
package struct LibcameraBackend: CameraBackend {
    /// The backend of this process's libcamera camera manager.
    package init() {}

    /// The cameras libcamera lists, in its order. A machine where libcamera's manager does not
    /// start (no pipeline handler matches, no permission) has no libcamera cameras: that is no
    /// problem to report, as a machine without `/dev/video*` nodes is not. A shim that could
    /// not be loaded is: it is why libcamera's cameras, if any, are not listed.
    package func discovery() -> DeviceDiscovery {
        let manager: LibcameraManager
        let cameras: [LibcameraCameraInfo]
        do throws(LibcameraError) {
            manager = try LibcameraManager.shared()
            cameras = try manager.cameras()
        } catch {
            guard case .shimUnavailable = error else { return DeviceDiscovery(devices: [], problems: []) }
            return DeviceDiscovery(devices: [], problems: [], backendProblems: [PhotoCaptureError(error)])
        }
        var devices: [CaptureDevice] = []
        var problems: [PhotoCaptureError] = []
        for info in cameras {
            do throws(LibcameraError) {
                devices.append(try CaptureDevice.makeLibcameraDevice(info, manager: manager))
            } catch {
                problems.append(PhotoCaptureError(error))
            }
        }
        return DeviceDiscovery(devices: devices, problems: problems)
    }
}
