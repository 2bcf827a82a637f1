import ImageFiles
import Imaging
import PhotoCaptureCore

extension CaptureDevice {
    /// The libcamera camera `id` (as `photocap devices` lists it, e.g. `platform/vimc.0 Sensor B`).
    ///
    /// The sensor mounting is libcamera's Rotation property, mirrored for a camera whose
    /// Location is front; the camera is acquired only while it streams. A camera another process
    /// holds is not listed by libcamera here; while a media device is locked by another process,
    /// an id libcamera does not list is ``PhotoCaptureError/Code/deviceBusy(device:)``.
    public static func libcamera(id: String) throws(PhotoCaptureError) -> CaptureDevice {
        do throws(LibcameraError) {
            let manager = try LibcameraManager.shared()
            guard let info = try manager.cameras().first(where: { $0.id == id }) else {
                throw MediaDeviceLocks.heldByAnotherProcess() ? LibcameraError.busy(camera: id) : LibcameraError.notFound(camera: id)
            }
            return try makeLibcameraDevice(info, manager: manager)
        } catch {
            throw PhotoCaptureError(error)
        }
    }

    /// The controls the camera accepts in its capture requests, as libcamera lists them (sorted
    /// by id); empty for cameras of other backends. The camera is not acquired: a camera another
    /// process streams is listed too.
    public func libcameraControls() throws(PhotoCaptureError) -> [LibcameraControl] {
        guard let details = libcameraDetails else { return [] }
        do throws(LibcameraError) {
            return try LibcameraManager.shared().controls(of: details.id)
        } catch {
            throw PhotoCaptureError(error)
        }
    }

    /// The device for a listed camera; fails when photocap can read none of its still formats.
    static func makeLibcameraDevice(_ info: LibcameraCameraInfo, manager: LibcameraManager) throws(LibcameraError) -> CaptureDevice {
        let (formats, unsupported) = info.deviceFormats
        let stillFormats = formats.filter { format in info.stillFormats.contains { $0.name == format.pixelFormat.libcameraName } }
        guard !stillFormats.isEmpty else {
            throw .unsupportedFormat(camera: info.id, format: info.stillFormats.map(\.name).joined(separator: ", "))
        }
        let details = LibcameraDetails(
            id: info.id, model: info.model, location: info.location, reportedSensorRotation: info.rotation,
            pixelArray: info.pixelArray, unsupportedFormats: unsupported, hasRawStream: !info.rawFormats.isEmpty,
            libcameraVersion: manager.version)
        // Only the still stream is streamed yet: a raw format is listed in the details, not offered.
        return CaptureDevice(uniqueID: info.id, localizedName: info.model.isEmpty ? info.id : info.model, kind: .libcamera,
                             formats: stillFormats, sensorMounting: info.sensorMounting, location: info.location,
                             backendDetails: details, source: LibcameraFrameSource(info: info, manager: manager))
    }
}
