import Glibc
import Imaging
import PhotoCaptureCore
import V4L2

/// Frames from a V4L2 device, through the V4L2 layer's mmap stream.
final class V4L2FrameSource: FrameSource {
    let stream: V4L2Stream
    /// The camera's exposure controls, for brackets.
    let exposure: V4L2ExposureControls?
    /// The lens's focus controls, for requests that set focus.
    let focus: V4L2FocusControls?

    /// Driver buffers: the live ring holds up to 2, a photo being encoded 1, a consumer's
    /// pending and in-conversion frames 2 — 8 leaves at least 3 with the driver at any time.
    static let bufferCount = 8

    init(device: V4L2Device) {
        stream = V4L2Stream(device: device, bufferCount: Self.bufferCount)
        exposure = V4L2ExposureControls(device: device)
        focus = V4L2FocusControls(device: device)
    }

    func startStreaming(format: FramePixelFormat, size: PixelSize, discardingFirst: Int) async throws(PhotoCaptureError) {
        do {
            try await stream.start(format, size: size, discardingFirst: discardingFirst)
        } catch {
            throw Self.streamingError(error, device: stream.device)
        }
    }

    /// A pipeline's node that will not stream is one not configured (EPIPE: the formats from the
    /// sensor to the node do not match), which the error says, rather than the bare errno.
    static func streamingError(_ error: V4L2Error, device: V4L2Device) -> PhotoCaptureError {
        if case .callFailed(_, .streamOn, .brokenPipe) = error, (try? device.capabilities())?.isMediaControllerCentric == true {
            return PhotoCaptureError(.pipelineNode(device: device.path, libcameraCameras: []))
        }
        return PhotoCaptureError(error)
    }

    func stopStreaming() async {
        await stream.stop()
    }

    func frame(startedAfter instant: UInt64, timeout: Duration) async throws(PhotoCaptureError) -> DeliveredFrame {
        let captured: V4L2CapturedFrame
        do {
            captured = try await stream.frame(startedAfter: instant, timeout: timeout)
        } catch {
            throw PhotoCaptureError(error)
        }
        let report = captured.report
        var delivery = FrameDelivery()
        delivery.faults = report.faults
        delivery.requestToExposureNanoseconds = report.exposureStartNanoseconds - min(report.exposureStartNanoseconds, instant)
        delivery.requestToDeliveryNanoseconds = report.dequeuedNanoseconds - min(report.dequeuedNanoseconds, instant)
        return DeliveredFrame(frame: captured.frame, delivery: delivery)
    }
}

extension PhotoCaptureError {
    /// The photo-level error for a V4L2 failure: disconnects, busy devices and permissions get
    /// their own codes; other failed calls keep the ioctl's name and errno text.
    package init(_ error: V4L2Error) {
        let device = error.device
        if error.isDeviceGone {
            self.init(Code.deviceDisconnected(device: device))
        } else if error.isBusy {
            self.init(Code.deviceBusy(device: device))
        } else if error.isPermissionDenied {
            self.init(Code.permissionDenied(device: device))
        } else {
            switch error {
            case .callFailed(_, .open, .noSuchFileOrDirectory):
                self.init(Code.noSuchDevice(device: device))
            case .callFailed:
                self.init(Code.deviceCallFailed(DeviceError(error)))
            case .notACaptureDevice:
                self.init(Code.notACaptureDevice(device: device))
            case .timeout(_, let milliseconds):
                self.init(Code.frameTimeout(milliseconds: milliseconds, device: device, frame: .next))
            case .corruptFrames(_, let count):
                self.init(Code.corruptFrames(device: device, count: count))
            case .notStreaming:
                self.init(Code.sessionNotRunning)
            default:
                self.init(Code.deviceFailure(DeviceError(error)))
            }
        }
    }
}
