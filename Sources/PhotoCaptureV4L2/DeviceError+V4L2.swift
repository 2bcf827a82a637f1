import PhotoCaptureCore
import V4L2

extension DeviceError {
    /// The backend-neutral error for a V4L2 failure: the node, the ioctl's kernel name and the
    /// errno when a call failed, and the V4L2 error itself as the cause.
    package init(_ error: V4L2Error) {
        switch error {
        case .callFailed(let device, let call, let errno):
            self.init(device: device, call: call.rawValue, errno: errno, underlying: error)
        default:
            self.init(device: error.device, underlying: error)
        }
    }
}
