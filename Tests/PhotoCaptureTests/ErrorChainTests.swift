import Codecs
import Foundation
import PhotoCapture
import Testing

/// Errors of the lower layers travel inside ``PhotoCaptureError`` as typed values, and the one
/// line a user reads stays what it was.
@Suite struct ErrorChainTests {
    @Test func aFailedIoctlIsCarriedWithItsCallAndErrno() throws {
        let cause = V4L2Error.callFailed(device: "/dev/video0", call: .streamOn, errno: .invalidArgument)
        let error = PhotoCaptureError(.deviceCallFailed(cause), uniqueID: 7)
        #expect(error.description == "request 7: /dev/video0: VIDIOC_STREAMON failed: Invalid argument (errno 22)")
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
