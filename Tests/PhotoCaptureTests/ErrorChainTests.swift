import Codecs
import Foundation
import PhotoCapture
import Testing
import V4L2Testing

/// Errors of the lower layers travel inside ``PhotoCaptureError`` as typed values, and the one
/// line a user reads stays what it was.
@Suite struct ErrorChainTests {
    @Test func aFailedIoctlIsCarriedWithItsCallAndErrno() throws {
        let cause = V4L2Error.callFailed(device: "/dev/video0", call: .streamOn, errno: .invalidArgument)
        let error = PhotoCaptureError(.deviceCallFailed(DeviceError(cause)), uniqueID: 7)
        #expect(error.description == "request 7: /dev/video0: VIDIOC_STREAMON failed: Invalid argument (errno 22)")
        guard case .deviceCallFailed(let neutral) = error.code else { Issue.record("not a failed call: \(error)"); return }
        #expect(neutral.device == "/dev/video0" && neutral.call == "VIDIOC_STREAMON" && neutral.errno == .invalidArgument)
        let carried = try #require(error.underlyingError as? V4L2Error)
        #expect(carried.errno == .invalidArgument)
        guard case .callFailed(_, let call, _) = carried else { Issue.record("not a failed call: \(carried)"); return }
        #expect(call == .streamOn)
    }

    @Test func aCodecFailureIsCarriedTyped() throws {
        let cause = CodecError.turboJPEG(function: "tjCompressFromYUVPlanes", message: "bad")
        let error = PhotoCaptureError(.encoding(cause))
        #expect(error.description == "encoding failed: TurboJPEG tjCompressFromYUVPlanes failed: bad")
        #expect(error.underlyingError as? CodecError == cause)
    }

    /// A restore the driver refuses (the fake's control writes fail with EIO from then on): the
    /// error names the device and the control, and carries the V4L2 call's error, not its text.
    @Test func aRefusedRestoreCarriesTheDriversError() throws {
        let fake = FakeV4L2Driver(lens: .init(position: 0))
        let device = try CaptureDevice.v4l2(path: "/dev/fake0", driver: fake)
        let changes = try device.setControls([(key: "focus_absolute", value: "100")])
        fake.refuseControlWrites()
        let error = #expect(throws: PhotoCaptureError.self) { try changes.restore() }
        guard case .controlsNotRestored(let path, let controls, let cause)? = error?.code else {
            Issue.record("not a refused restore: \(String(describing: error))")
            return
        }
        #expect(path == "/dev/fake0" && controls == ["focus_absolute"])
        #expect(cause.errno == .ioError, "\(cause)")
        let backendCause = try #require(cause.underlying as? V4L2Error, "\(cause)")
        #expect(error?.underlyingError as? V4L2Error == backendCause)
        #expect(error?.description.hasPrefix("/dev/fake0: could not restore focus_absolute: /dev/fake0: ") == true,
                "\(String(describing: error))")
        // A second restore has nothing left to write.
        #expect(throws: Never.self) { try changes.restore() }
    }

    /// A real refusal from the library: an uncompressed photo has no file to write, and the error says which format.
    @Test func writingAnUncompressedPhotoNamesTheFormat() async throws {
        let (session, output) = try await runningSession(CaptureDevice.synthetic())
        defer { Task { await session.stopRunning() } }
        var settings = PhotoSettings(format: .uncompressed)
        settings.maxPhotoDimensions = PixelSize(width: 64, height: 48)
        let photo = try await output.capturePhoto(with: settings)
        let folder = FileManager.default.temporaryDirectory.path
        #expect(throws: PhotoCaptureError(.noFileRepresentation(.uncompressed), uniqueID: settings.uniqueID)) {
            try photo.write(to: folder + "/never-written-\(UUID().uuidString)")
        }
    }
}
