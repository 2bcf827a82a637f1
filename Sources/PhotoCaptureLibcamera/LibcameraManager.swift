import CLibcamera
import Glibc
import Synchronization

/// The process's libcamera camera manager: libcamera allows one at a time, so it is started
/// on first use and kept for the life of the process (its threads watch for hot-plug).
package final class LibcameraManager: Sendable {
    /// The shim's manager; libcamera's manager is safe to call from any thread.
    nonisolated(unsafe) let pointer: OpaquePointer
    /// The shim's functions (loaded once, never unloaded; plain C function pointers).
    let shim: pc_lc_functions

    private init(pointer: OpaquePointer, shim: pc_lc_functions) {
        self.pointer = pointer
        self.shim = shim
    }

    /// The manager, started by the first call; the same failure for every call when it could not.
    package static func shared() throws(LibcameraError) -> LibcameraManager {
        try started.withLock { state throws(LibcameraError) -> LibcameraManager in
            if let state { return try state.get() }
            // libcamera logs its INFO lines (its version, each configuration) to stderr, which is
            // a CLI's output: errors only, unless the user asked for more.
            setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 0)
            let result: Result<LibcameraManager, LibcameraError>
            var message = LibcameraResult.messageBuffer()
            if let shim = pc_lc_load(&message, message.count)?.pointee {
                if let pointer = shim.manager_create(&message, message.count) {
                    result = .success(LibcameraManager(pointer: pointer, shim: shim))
                } else {
                    result = .failure(.managerUnavailable(reason: LibcameraResult.message(message)))
                }
            } else {
                result = .failure(.shimUnavailable(reason: LibcameraResult.message(message)))
            }
            state = result
            return try result.get()
        }
    }

    private static let started = Mutex<Result<LibcameraManager, LibcameraError>?>(nil)

    /// libcamera's version as the shim was compiled against ("0.0.3").
    package var version: String { shim.version().flatMap { String(validatingCString: $0) } ?? "" }

    /// The cameras libcamera lists now, in its order.
    package func cameras() throws(LibcameraError) -> [LibcameraCameraInfo] {
        var message = LibcameraResult.messageBuffer()
        var infos = [pc_lc_camera_info](repeating: pc_lc_camera_info(), count: 8)
        var count = shim.manager_cameras(pointer, &infos, Int32(infos.count), &message, message.count)
        if count > Int32(infos.count) {
            infos = [pc_lc_camera_info](repeating: pc_lc_camera_info(), count: Int(count))
            count = shim.manager_cameras(pointer, &infos, Int32(infos.count), &message, message.count)
        }
        guard count >= 0 else {
            throw LibcameraError(result: count, call: .listCameras, camera: "", message: LibcameraResult.message(message))
                ?? .callFailed(camera: "", call: .listCameras, reason: LibcameraResult.message(message))
        }
        return infos.prefix(min(Int(count), infos.count)).map(LibcameraCameraInfo.init)
    }

    /// The controls of camera `id`, sorted by libcamera's id.
    package func controls(of id: String) throws(LibcameraError) -> [LibcameraControl] {
        var message = LibcameraResult.messageBuffer()
        var infos = [pc_lc_control_info](repeating: pc_lc_control_info(), count: 64)
        var count = shim.manager_controls(pointer, id, &infos, Int32(infos.count), &message, message.count)
        if count > Int32(infos.count) {
            infos = [pc_lc_control_info](repeating: pc_lc_control_info(), count: Int(count))
            count = shim.manager_controls(pointer, id, &infos, Int32(infos.count), &message, message.count)
        }
        guard count >= 0 else {
            throw LibcameraError(result: count, call: .listControls, camera: id, message: LibcameraResult.message(message))
                ?? .callFailed(camera: id, call: .listControls, reason: LibcameraResult.message(message))
        }
        return infos.prefix(min(Int(count), infos.count)).map(LibcameraControl.init)
    }
}
