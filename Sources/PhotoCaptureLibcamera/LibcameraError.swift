import CLibcamera

/// An error of the libcamera backend, naming the camera (libcamera's id) and what failed, with
/// libcamera's own message where it gave one.
public enum LibcameraError: Error, Hashable, Sendable, CustomStringConvertible {
    /// photocap's libcamera shim (`libphotocap-libcamera.so`, the photocap-libcamera product)
    /// could not be loaded: it is not installed beside the executable nor on the library path,
    /// libcamera itself is missing, or it belongs to another photocap. `reason` says which.
    case shimUnavailable(reason: String)
    /// libcamera's camera manager could not start.
    case managerUnavailable(reason: String)
    /// No camera has that id (or it was unplugged before it was opened).
    case notFound(camera: String)
    /// Another process (or another handle in this one) has acquired the camera.
    case busy(camera: String)
    /// The camera was unplugged (or its pipeline unbound) while open.
    case removed(camera: String)
    /// The pipeline cannot produce the stream asked for, even adjusted.
    case configurationRefused(camera: String, requested: String, reason: String)
    /// The pipeline configured a pixel format photocap cannot read.
    case unsupportedFormat(camera: String, format: String)
    /// No request completed within the wait.
    case timeout(camera: String, milliseconds: Int)
    /// A capture was asked for before the stream was started.
    case notStreaming(camera: String)
    /// A completed request's frame is smaller than its format needs.
    case shortFrame(camera: String, expected: Int, actual: Int)
    /// The stream could not restart: `count` frames of the previous one still borrow its
    /// buffers (a consumer keeps them past the wait for their release).
    case framesHeld(camera: String, count: Int)
    /// A call into libcamera failed otherwise; `reason` is libcamera's message.
    case callFailed(camera: String, call: LibcameraCall, reason: String)

    /// The camera the error is about; empty for the manager.
    public var camera: String {
        switch self {
        case .shimUnavailable, .managerUnavailable: return ""
        case .notFound(let camera), .busy(let camera), .removed(let camera), .configurationRefused(let camera, _, _),
             .unsupportedFormat(let camera, _), .timeout(let camera, _), .notStreaming(let camera),
             .shortFrame(let camera, _, _), .framesHeld(let camera, _), .callFailed(let camera, _, _):
            return camera
        }
    }

    /// The error for the shim's `result` (a PC_LC_* code) of `call` on `camera`, with the
    /// shim's `message`; nil for PC_LC_OK.
    package init?(result: Int32, call: LibcameraCall, camera: String, message: String, requested: String = "") {
        switch result {
        case PC_LC_OK: return nil
        case PC_LC_NOT_FOUND: self = .notFound(camera: camera)
        case PC_LC_BUSY: self = .busy(camera: camera)
        case PC_LC_REMOVED: self = .removed(camera: camera)
        case PC_LC_INVALID: self = .configurationRefused(camera: camera, requested: requested, reason: message)
        case PC_LC_TIMEOUT: self = .timeout(camera: camera, milliseconds: 0)
        default: self = .callFailed(camera: camera, call: call, reason: message)
        }
    }

    /// A line for people.
    public var description: String {
        switch self {
        case .shimUnavailable(let reason): return "photocap's libcamera support is not loaded: \(reason)"
        case .managerUnavailable(let reason): return "libcamera's camera manager did not start: \(reason)"
        case .notFound(let camera): return "libcamera has no camera \"\(camera)\""
        case .busy(let camera): return "libcamera camera \"\(camera)\" is in use by another process"
        case .removed(let camera): return "libcamera camera \"\(camera)\" was disconnected"
        case .configurationRefused(let camera, let requested, let reason):
            return "libcamera camera \"\(camera)\" cannot stream \(requested)" + (reason.isEmpty ? "" : ": \(reason)")
        case .unsupportedFormat(let camera, let format):
            return "libcamera camera \"\(camera)\" configured \(format), which photocap cannot read"
        case .timeout(let camera, let milliseconds):
            return "libcamera camera \"\(camera)\" completed no capture within \(milliseconds) ms"
        case .notStreaming(let camera): return "libcamera camera \"\(camera)\" is not streaming"
        case .shortFrame(let camera, let expected, let actual):
            return "libcamera camera \"\(camera)\" delivered \(actual) bytes for a frame of \(expected)"
        case .framesHeld(let camera, let count):
            return "libcamera camera \"\(camera)\" cannot restart: \(count) frame(s) of its previous stream are still in use"
        case .callFailed(let camera, let call, let reason):
            return "libcamera camera \"\(camera)\": \(call.rawValue) failed" + (reason.isEmpty ? "" : ": \(reason)")
        }
    }
}
