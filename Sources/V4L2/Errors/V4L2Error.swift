import Glibc
import Imaging

/// Errors of the V4L2 layer; each names the device and, for failed calls, the ioctl and errno.
public enum V4L2Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system call or ioctl failed.
    case callFailed(device: String, call: V4L2Call, errno: Errno)
    /// The node exists but cannot capture video (a metadata, output or radio node).
    case notACaptureDevice(device: String)
    /// The device does not support mmap streaming.
    case streamingUnsupported(device: String)
    /// The driver answered S_FMT with another format or size than the one asked.
    case formatNotAccepted(device: String, requested: String, granted: String)
    /// No usable frame arrived within the time limit.
    case timeout(device: String, milliseconds: Int)
    /// Too many frames in a row came back flagged V4L2_BUF_FLAG_ERROR or short.
    case corruptFrames(device: String, count: Int)
    /// The stream is not running.
    case notStreaming(device: String)
    /// The driver did not deliver the requested crop unscaled; `granted` is the crop it kept, nil
    /// when it cannot crop this input at all (or the frame size is not the crop's).
    case cropNotAccepted(device: String, requested: PixelRect, granted: PixelRect?)
    /// The device has no video input with this index; `available` lists its inputs.
    case noSuchInput(device: String, index: Int, available: [String])
    /// The task waiting for a frame was cancelled; the wait ended without one.
    case cancelled(device: String)

    /// The device node, as given when it was opened.
    public var device: String {
        switch self {
        case .callFailed(let device, _, _), .notACaptureDevice(let device), .streamingUnsupported(let device),
             .formatNotAccepted(let device, _, _), .timeout(let device, _), .corruptFrames(let device, _),
             .notStreaming(let device), .cropNotAccepted(let device, _, _),
             .noSuchInput(let device, _, _), .cancelled(let device):
            return device
        }
    }

    /// The errno of a failed call.
    public var errno: Errno? {
        if case .callFailed(_, _, let code) = self { return code }
        return nil
    }

    /// The device was unplugged or unregistered (ENODEV/ENXIO).
    public var isDeviceGone: Bool { errno == .operationNotSupportedByDevice || errno == .noSuchAddressOrDevice }
    /// Another process is using the device (EBUSY).
    public var isBusy: Bool { errno == .resourceBusy }
    /// The user may not open the device (EACCES/EPERM).
    public var isPermissionDenied: Bool { errno == .permissionDenied || errno == .notPermitted }

    /// One line for people.
    public var description: String {
        switch self {
        case .callFailed(let device, let call, let code):
            return "\(device): \(call) failed: \(code)"
        case .notACaptureDevice(let device):
            return "\(device) is not a video capture device"
        case .streamingUnsupported(let device):
            return "\(device) does not support mmap streaming"
        case .formatNotAccepted(let device, let requested, let granted):
            return "\(device) does not deliver \(requested) (the driver offered \(granted))"
        case .timeout(let device, let milliseconds):
            return "\(device): no frame within \(milliseconds) ms"
        case .corruptFrames(let device, let count):
            return "\(device): \(count) corrupt frames in a row"
        case .notStreaming(let device):
            return "\(device) is not streaming"
        case .cropNotAccepted(let device, let requested, let granted):
            return "\(device) does not deliver the crop \(requested) unscaled"
                + (granted.map { " (VIDIOC_S_SELECTION kept \($0))" } ?? " (no V4L2_SEL_TGT_CROP_BOUNDS on this input)")
        case .noSuchInput(let device, let index, let available):
            return "\(device) has no input \(index) (inputs: \(available.joined(separator: ", ")))"
        case .cancelled(let device):
            return "\(device): the wait for a frame was cancelled"
        }
    }
}

/// Turns a shim result (negative errno on failure) into a thrown ``V4L2Error``.
@discardableResult
func check(_ result: Int32, _ call: V4L2Call, device: String) throws(V4L2Error) -> Int32 {
    guard result >= 0 else { throw .callFailed(device: device, call: call, errno: Errno(-result)) }
    return result
}
