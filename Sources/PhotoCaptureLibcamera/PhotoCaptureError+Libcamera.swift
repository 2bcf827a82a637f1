import PhotoCaptureCore

extension PhotoCaptureError {
    /// The photo-level error for a libcamera failure: a camera in use, unplugged or unknown gets
    /// the code a V4L2 camera's would; the rest keep the libcamera error as their cause.
    package init(_ error: LibcameraError) {
        let camera = error.camera
        switch error {
        case .busy: self.init(Code.deviceBusy(device: camera))
        case .removed: self.init(Code.deviceDisconnected(device: camera))
        case .notFound: self.init(Code.noSuchDevice(device: camera))
        case .timeout(_, let milliseconds): self.init(Code.frameTimeout(milliseconds: milliseconds, device: camera, frame: .next))
        case .notStreaming: self.init(Code.sessionNotRunning)
        case .callFailed(_, let call, _): self.init(Code.deviceCallFailed(DeviceError(device: camera, call: call.rawValue, underlying: error)))
        case .shimUnavailable, .managerUnavailable, .configurationRefused, .unsupportedFormat, .shortFrame, .framesHeld:
            self.init(Code.deviceFailure(DeviceError(device: camera, underlying: error)))
        }
    }
}
