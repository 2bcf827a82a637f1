import Foundation
import Glibc
import PhotoCapture
import Synchronization
import Testing
import V4L2
import V4L2Testing

/// The V4L2 streaming loop on the host: the whole stack (CaptureDevice, LiveFrameSource,
/// V4L2Stream) over ``FakeV4L2Driver``, a camera at 100 fps whose faults are injected at chosen
/// frames. Each fault must end as specified: skipped and counted, the stream restarted, or every
/// pending request and consumer ended with the error and its uniqueID.
///
/// Timed like the timing tests: the fake is a 100 fps camera that drops frames the loop does not
/// take in time, and the photos are processed on Swift's cooperative pool, which the suite's
/// blocking tests can hold for seconds. `.ci/test` runs the suite on its own with PHOTOCAP_TIMING_TESTS=1.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["PHOTOCAP_TIMING_TESTS"] == "1",
                             "timed on a quiet machine: PHOTOCAP_TIMING_TESTS=1"))
struct V4L2FakeDriverTests {
    static let interval: UInt64 = 10_000_000  // 100 fps

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func session(_ fake: FakeV4L2Driver, zeroShutterLag: Bool = true) async throws -> (CaptureSession, PhotoOutput) {
        let device = try CaptureDevice.v4l2(path: "/dev/fake0", driver: fake)
        let (session, output) = try await runningSession(device)
        output.isZeroShutterLagEnabled = zeroShutterLag
        // Generous: the suite runs beside others on 2 cores; a hang still ends.
        output.frameTimeout = .seconds(15)
        return (session, output)
    }

    /// Waits (bounded) until the fake has handed out `count` buffers.
    static func waitForDequeues(_ fake: FakeV4L2Driver, _ count: Int, within seconds: Double = 30) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while fake.record.dequeued < count, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    static func settings() -> PhotoSettings { PhotoSettings(format: .uncompressed) }

    @Test func framesFlowBetweenRequestsAndEveryBufferGoesBack() async throws {
        let fake = FakeV4L2Driver()
        let (session, output) = try await Self.session(fake)
        // 8 buffers: without the requeue the fake would stop after 8 frames.
        try await Self.waitForDequeues(fake, 60)
        var photos: [(UInt64, CapturePhoto)] = []
        for _ in 0..<10 {
            try await Task.sleep(for: .milliseconds(13))
            let request = Self.now()
            photos.append((request, try await output.capturePhoto(with: Self.settings())))
        }
        await session.stopRunning()
        let record = fake.record
        #expect(record.dequeued >= 60, "the loop stopped after \(record.dequeued) frames")
        #expect(record.mostHeld <= 8 - 2, "the loop held \(record.mostHeld) of 8 buffers")
        #expect(record.streamOns == 1 && record.streamOffs >= 1)
        for (request, photo) in photos {
            // Never a stale frame: begun at most one interval (plus slack) before the request.
            #expect(photo.timestamp + 2 * Self.interval > request, "stale by \(request - photo.timestamp) ns")
            // The frame under way at the library's instant of the request (begun before it), or,
            // when the loop lagged on a loaded machine and that frame was dropped, the first after.
            let offset = photo.frameDelivery.exposureStartOffsetNanoseconds
            switch photo.frameDelivery.frameSelection {
            case .zeroShutterLag: #expect(offset <= 0 && offset > -2 * Int64(Self.interval), "offset \(offset) ns")
            case .firstFrameAfterRequest: #expect(offset > 0, "offset \(offset) ns")
            case .firstFrameAfterChange: Issue.record("nothing changed the stream")
            }
        }
        let underWay = photos.filter { $0.1.frameDelivery.frameSelection == .zeroShutterLag }.count
        #expect(underWay >= 5, "only \(underWay) of 10 photos were the frame under way at the request")
    }

    @Test("JPEG photos from a camera's buffers have their planes made with the encode, and keep no buffer")
    func jpegPhotosKeepNoCameraBuffer() async throws {
        let fake = FakeV4L2Driver()
        let (session, output) = try await Self.session(fake)
        // More photos kept than the fake has buffers: were a photo to keep its frame for a
        // pixel buffer made later, the stream would stop after 8 and the later requests time out.
        var photos: [CapturePhoto] = []
        for _ in 0..<10 { photos.append(try await output.capturePhoto(with: PhotoSettings(format: .jpeg))) }
        try await Self.waitForDequeues(fake, fake.record.dequeued + 4)
        await session.stopRunning()
        #expect(fake.record.mostHeld <= 8 - 2, "the loop held \(fake.record.mostHeld) of 8 buffers")
        for photo in photos {
            #expect(photo.pixelBuffer.isMade)
            #expect(photo.fileDataRepresentation() != nil)
        }
    }

    @Test func flaggedAndShortBuffersAreSkippedAndRequeued() async throws {
        let fake = FakeV4L2Driver()
        // 16 bad buffers, never two in a row: each must go back or the 8 buffers run out.
        for frame in stride(from: 10, to: 58, by: 3) { fake.inject(frame % 2 == 0 ? .flagged : .short, atFrame: frame) }
        let (session, output) = try await Self.session(fake)
        try await Self.waitForDequeues(fake, 90)
        let photo = try await output.capturePhoto(with: Self.settings())
        await session.stopRunning()
        #expect(fake.record.dequeued >= 90, "the loop stopped after \(fake.record.dequeued) frames")
        #expect(photo.frameSequence > 58)
        #expect(fake.record.mostHeld <= 8 - 2)
    }

    @Test func aSpuriousWakeupIsNotAnError() async throws {
        let fake = FakeV4L2Driver()
        fake.inject(.spuriousWakeup, atFrame: 5)
        fake.inject(.spuriousWakeup, atFrame: 6)
        let (session, output) = try await Self.session(fake)
        try await Self.waitForDequeues(fake, 20)
        _ = try await output.capturePhoto(with: Self.settings())
        await session.stopRunning()
        #expect(fake.record.streamOns == 1)
        #expect(fake.record.dequeued >= 20)
    }

    @Test func aFatalStreamErrorRestartsTheStreamOnce() async throws {
        let fake = FakeV4L2Driver()
        fake.inject(.streamError, atFrame: 10)
        let (session, output) = try await Self.session(fake)
        try await Self.waitForDequeues(fake, 40)
        let photo = try await output.capturePhoto(with: Self.settings())
        await session.stopRunning()
        #expect(fake.record.streamOns == 2, "the stream was started \(fake.record.streamOns) times")
        #expect(photo.frameSequence < 40, "sequence numbers restart with the stream")
    }

    /// A stalled camera (a late frame) with requests waiting, then a fault it cannot recover
    /// from: every waiting request ends with the error and its own uniqueID, the video data
    /// output ends with it too, and nothing hangs.
    @Test(arguments: [FakeV4L2Driver.Fault.disconnect, .streamError])
    func anUnrecoverableFaultEndsEveryPendingRequest(_ fault: FakeV4L2Driver.Fault) async throws {
        let fake = FakeV4L2Driver()
        fake.inject(.late(milliseconds: 400), atFrame: 20)
        // A stream error on every frame after the stall: the one restart fails too.
        for frame in 21..<400 { fake.inject(fault, atFrame: frame) }
        let (session, output) = try await Self.session(fake, zeroShutterLag: false)
        let video = VideoDataOutput()
        let watcher = FailureWatcher()
        video.setSampleBufferDelegate(watcher)
        try session.addOutput(video)
        let videoFrames = video.frames()
        let videoEnded = Task { var count = 0; for await _ in videoFrames { count += 1 }; return count }
        try await Self.waitForDequeues(fake, 20)
        try await Task.sleep(for: .milliseconds(50))  // inside the stall
        let requests = (0..<3).map { _ in Self.settings() }
        let results = try await endings(of: requests, on: output)
        #expect(results.count == 3)
        for (id, error) in results {
            let error = try #require(error, "request \(id) got a photo from a broken stream")
            #expect(error.uniqueID == id)
            switch (fault, error.code) {
            case (.disconnect, .deviceDisconnected), (.streamError, .deviceCallFailed): break
            default: Issue.record("request \(id) ended with \(error), not the fault")
            }
        }
        // Stopping ends the video stream anyway, so a missing failure cannot hang the test.
        let deadline = Date().addingTimeInterval(1)
        while watcher.failure == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let videoError = watcher.failure
        await session.stopRunning()
        _ = await videoEnded.value
        #expect(videoError?.code == results.first?.1?.code, "the video data output ended with \(String(describing: videoError))")
    }
}

extension V4L2FakeDriverTests {
    /// A camera unplugged with a video data output and the scene monitor attached: once the app
    /// stops the session and lets go, the device's descriptor is closed (nothing keeps it alive).
    @Test func aDisconnectedCameraWithConsumersIsReleased() async throws {
        let fake = FakeV4L2Driver()
        fake.inject(.disconnect, atFrame: 15)
        try await {
            let (session, _) = try await Self.session(fake)
            let video = VideoDataOutput()
            video.maximumDimensions = PixelSize(width: 64, height: 48)
            let watcher = FailureWatcher()
            video.setSampleBufferDelegate(watcher)
            try session.addOutput(video)
            let statuses = try #require(session.input).sceneMonitor.lightingUpdates()
            var frames = video.frames().makeAsyncIterator()
            while await frames.next() != nil {}
            for await _ in statuses {}
            await session.stopRunning()
        }()
        let deadline = Date().addingTimeInterval(5)
        while fake.record.closes == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(fake.record.closes == 1, "the camera's descriptor was never closed")
    }
}

/// Keeps the first error a video data output reports.
private final class FailureWatcher: VideoDataOutputDelegate {
    private let error = Mutex<PhotoCaptureError?>(nil)
    var failure: PhotoCaptureError? { error.withLock { $0 } }

    func videoDataOutput(_ output: VideoDataOutput, didOutput frame: VideoFrame) {}

    func videoDataOutput(_ output: VideoDataOutput, didFailWith error: PhotoCaptureError) {
        self.error.withLock { $0 = $0 ?? error }
    }
}
