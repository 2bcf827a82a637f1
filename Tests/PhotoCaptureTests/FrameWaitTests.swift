import Foundation
import PhotoCapture
import Synchronization
import Testing
import V4L2Testing

/// How long a request waits for its frame when the app sets no ``PhotoOutput/frameTimeout``:
/// a camera that makes its frames on demand is never timed out, however late
/// a loaded machine makes them; a real camera that stalls is, after ten frame intervals or the
/// 5 s floor, and the error says which device, which frame and how long.
@Suite struct FrameWaitTests {
    /// The outcome of a capture of `settings` and how long it waited; the session is stopped
    /// after it.
    private static func timedCapture(_ settings: PhotoSettings, output: PhotoOutput,
                                     session: CaptureSession) async -> (Result<CapturePhoto, PhotoCaptureError>, Duration) {
        let started = ContinuousClock.now
        let result: Result<CapturePhoto, PhotoCaptureError>
        do { result = .success(try await output.capturePhoto(with: settings)) } catch { result = .failure(error) }
        let waited = ContinuousClock.now - started
        await session.stopRunning()
        return (result, waited)
    }

    /// A running fake V4L2 camera at 100 fps whose frame 30 comes 12 s late, once `count` frames
    /// were dequeued (or 30 s passed): the silence is near.
    private static func cameraFallingSilent(afterDequeuing count: Int) async throws
        -> (FakeV4L2Driver, CaptureSession, PhotoOutput) {
        let fake = FakeV4L2Driver()
        fake.inject(.late(milliseconds: 12_000), atFrame: 30)
        let (session, output) = try await runningSession(try CaptureDevice.v4l2(path: "/dev/fake0", driver: fake))
        let deadline = ContinuousClock.now + .seconds(30)
        while fake.record.dequeued < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return (fake, session, output)
    }

    /// A synthetic frame that comes 5.6 s after the request (55 frames discarded at 10 fps, as
    /// a machine too loaded to make frames in time would delay it) is still delivered: the old
    /// 5 s limit ended such requests with "no frame arrived within 5000 ms".
    @Test func aSyntheticCameraWaitsForItsFrameHoweverLate() async throws {
        var configuration = CaptureDevice.SyntheticConfiguration(maximumSize: PixelSize(width: 64, height: 48),
                                                                framesPerSecond: 10)
        configuration.lens = nil
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(CaptureDevice.synthetic(configuration))
        try session.addOutput(output)
        try await session.startRunning(discardingFirst: 55)
        let (result, waited) = await Self.timedCapture(PhotoSettings(format: .uncompressed), output: output, session: session)
        let photo = try result.get()
        #expect(output.frameTimeout == nil)
        #expect(waited > .seconds(5), "the frame came after \(waited): the test no longer waits past the old limit")
        #expect(photo.pixelBuffer.size == PixelSize(width: 64, height: 48))
    }

    /// A real camera that goes silent for 12 s while a request waits: the request ends after the
    /// 5 s floor (ten 10 ms intervals are less), with an error naming the device, the frame it
    /// waited for (zero shutter lag: the one under way) and the limit.
    @Test func aStalledRealCameraTimesOutAfterTheFloorAndSaysWhatItWaitedFor() async throws {
        let (_, session, output) = try await Self.cameraFallingSilent(afterDequeuing: 20)
        // Past frame 30's end (10 frames of 10 ms later), so the frame under way at the request
        // is behind the late one.
        try await Task.sleep(for: .milliseconds(250))
        let settings = PhotoSettings(format: .uncompressed)
        let (result, waited) = await Self.timedCapture(settings, output: output, session: session)
        let expected = PhotoCaptureError(.frameTimeout(milliseconds: 5000, device: "/dev/fake0", frame: .underWayAtRequest),
                                         uniqueID: settings.uniqueID)
        #expect(throws: expected) { try result.get() }
        #expect(waited >= .milliseconds(4900) && waited < .seconds(11), "waited \(waited)")
        #expect(expected.description == "request \(settings.uniqueID): no frame arrived within 5000 ms from /dev/fake0; "
            + "it waited for the frame under way at the request (zero shutter lag)")
    }

    /// Stopping while the camera is silent does not wait out the stream's pull (2 s): the pull's
    /// poll is woken when its task is cancelled. Before, `shoot` sat up to 2 s after a frame
    /// timeout, and a vivid scenario bounded in time failed on it.
    @Test func stoppingASilentCameraDoesNotWaitOutThePull() async throws {
        let (fake, session, _) = try await Self.cameraFallingSilent(afterDequeuing: 29)
        // Well inside the pull that began with the last frame before the silence.
        try await Task.sleep(for: .milliseconds(300))
        let started = ContinuousClock.now
        await session.stopRunning()
        let stopping = ContinuousClock.now - started
        #expect(fake.record.dequeued < 31, "the camera was not silent: \(fake.record.dequeued) frames")
        #expect(stopping < .milliseconds(500), "stopping took \(stopping)")
    }
}
