import PhotocapCommands
import PhotoCapture
import PhotoCaptureVision
import Testing
@testable import photocap_vision

/// An output's refusal reaches the command line typed: the monitor's error is the cause of
/// `PhotoCaptureError.Code.outputFailed`, not a sentence.
@Suite struct FacesOutputErrorTests {
    @Test func aMonitorsRefusalStaysTypedUnderTheCaptureError() async throws {
        let session = CaptureSession()
        try session.addInput(CaptureDevice.synthetic(.init(maximumSize: PixelSize(width: 320, height: 240))))
        try await session.startRunning()
        let command = try ShootCommand.parse([])
        let refusal = SmartFramingError.unsupportedFraming(Framing(aspectRatio: .ratio1x1, zoomFactor: 3))
        let error = #expect(throws: PhotoCaptureError.self) {
            _ = try command.addFacesOutput(to: session) { () throws(SmartFramingError) in throw refusal }
        }
        await session.stopRunning()
        #expect(error?.code == .outputFailed(OutputError(output: "SmartFramingMonitor", underlying: refusal)))
        #expect(error?.underlyingError as? SmartFramingError == refusal)
        #expect(error?.description == refusal.description)
        // A different cause is a different error.
        #expect(error?.code != .outputFailed(OutputError(output: "SmartFramingMonitor", underlying: SmartFramingError.noEnabledFramings)))
    }
}
