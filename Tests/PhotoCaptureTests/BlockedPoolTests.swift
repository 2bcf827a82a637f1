import Foundation
import Glibc
import PhotoCapture
import Synchronization
import Testing
import V4L2Testing
import V4L2

/// The live stream runs on a thread of its own: an app that fills every thread of Swift's
/// cooperative pool with blocking work neither stalls it nor loses zero shutter lag.
/// Serialized: each case blocks the whole pool, and must know that its own blockers hold it.
@Suite(.serialized) struct BlockedPoolTests {
    typealias Live = LiveSessionTests

    /// What the tasks of the test tell each other, without a pool thread.
    final class Marks: Sendable {
        let blockersStarted = Atomic(0)
        let blockStart = Atomic<UInt64>(0)
        let probeStart = Atomic<UInt64>(0)
        let stopWatching = Atomic(false)
        let arrivals = Mutex<[UInt64]>([])
    }

    static let blockSeconds: UInt32 = 2

    enum Camera: String, CaseIterable, CustomTestStringConvertible {
        case synthetic
        /// The V4L2 stack over ``FakeV4L2Driver``: the pump waits on the V4L2 stream's queue.
        case fakeV4L2

        var testDescription: String { rawValue }

        func device() throws -> CaptureDevice {
            switch self {
            case .synthetic: Live.camera()
            case .fakeV4L2: try CaptureDevice.v4l2(path: "/dev/fake0", driver: FakeV4L2Driver(framesPerSecond: 30))
            }
        }

        func settings() -> PhotoSettings {
            switch self {
            case .synthetic: Live.small()
            case .fakeV4L2: PhotoSettings(format: .uncompressed)
            }
        }
    }

    /// A camera at 30 fps while every thread of the pool sleeps for 2 s: frames keep arriving at
    /// the pump (watched from a thread of the test's own), and a photo requested from an app's
    /// own thread meanwhile is the frame under way at the request.
    @Test(arguments: Camera.allCases)
    func aBlockedCooperativePoolNeitherStallsTheStreamNorLosesZeroShutterLag(camera: Camera) async throws {
        let device = try camera.device()
        let (session, output) = try await runningSession(device)
        // The stream at the photo's size from here on, so the next photo needs no restart.
        _ = try await output.capturePhoto(with: camera.settings())
        let marks = Marks()
        let watcherThread = ThreadTaskExecutor(name: "test.watcher")
        let appThread = ThreadTaskExecutor(name: "test.app")
        defer {
            watcherThread.shutdown()
            appThread.shutdown()
        }

        // The pump's side: every frame it takes is counted in the stream statistics, read here
        // from a thread of the test's own every millisecond.
        let watcher = Task(executorPreference: watcherThread) {
            var last = await device.streamStatistics().framesStreamed
            while !marks.stopWatching.load(ordering: .acquiring) {
                let streamed = await device.streamStatistics().framesStreamed
                if streamed != last {
                    let now = Live.now()
                    marks.arrivals.withLock { $0.append(now) }
                    last = streamed
                }
                usleep(1000)
            }
        }
        // Let the watcher see the stream before the pool is blocked.
        try await Task.sleep(for: .milliseconds(300))

        let width = ProcessInfo.processInfo.activeProcessorCount
        let app = Task(executorPreference: appThread) { () throws -> (before: UInt64, after: UInt64, photo: CapturePhoto) in
            // Every pool thread is taken once each blocker has started.
            let deadline = Live.now() + 10_000_000_000
            while marks.blockersStarted.load(ordering: .acquiring) < width, Live.now() < deadline { usleep(500) }
            marks.blockStart.store(Live.now(), ordering: .releasing)
            // The proof that the pool is blocked: a task for it starts only when a blocker ends.
            Task.detached { marks.probeStart.store(Live.now(), ordering: .releasing) }
            usleep(700_000)
            let before = Live.now()
            let photos = try output.capturePhotos(with: camera.settings())
            let after = Live.now()
            var photo: CapturePhoto?
            for try await item in photos { photo = item }
            return (before, after, try #require(photo))
        }
        for _ in 0..<width {
            Task.detached {
                marks.blockersStarted.add(1, ordering: .releasing)
                usleep(Self.blockSeconds * 1_000_000)
            }
        }
        let (before, after, photo) = try await app.value
        try await Task.sleep(for: .milliseconds(300))
        marks.stopWatching.store(true, ordering: .releasing)
        await watcher.value
        await session.stopRunning()

        // The pool really was blocked: the probe waited for a blocker to end.
        let blockStart = marks.blockStart.load(ordering: .acquiring)
        let probeStart = marks.probeStart.load(ordering: .acquiring)
        #expect(marks.blockersStarted.load(ordering: .acquiring) == width)
        #expect(probeStart >= blockStart + 1_500_000_000,
                "the probe started \(Double(probeStart) / 1e6 - Double(blockStart) / 1e6) ms into the block: the pool was not blocked")
        // Frames arrived throughout, at 30 fps: no gap over 100 ms, from before to after the block.
        let arrivals = marks.arrivals.withLock { $0 }
        let gaps = zip(arrivals, arrivals.dropFirst()).map { $1 - $0 }
        let maximum = gaps.max() ?? .max
        print("BlockedPoolTests, \(camera): \(arrivals.count) frames, max gap between frames at the pump \(Double(maximum) / 1e6) ms")
        #expect((arrivals.first ?? .max) < blockStart && (arrivals.last ?? 0) > probeStart, "watched \(arrivals.count) frames")
        #expect(maximum <= 100_000_000, "a gap of \(Double(maximum) / 1e6) ms between frames at the pump")
        let during = arrivals.filter { $0 > blockStart && $0 < probeStart }.count
        #expect(Double(during) >= Double(probeStart - blockStart) / Double(Live.interval) * 0.8,
                "\(during) frames in \(Double(probeStart - blockStart) / 1e6) ms of block")
        // The photo requested during the block is the frame whose exposure was under way then.
        #expect(before > blockStart && before < probeStart)
        #expect(photo.frameDelivery.frameSelection == .zeroShutterLag)
        #expect(photo.timestamp <= after, "exposure began \(Int64(photo.timestamp) - Int64(after)) ns after the request")
        #expect(photo.timestamp + Live.interval >= before, "stale: ended \(Int64(before) - Int64(photo.timestamp + Live.interval)) ns before")
        #expect(photo.frameDelivery.exposureStartOffsetNanoseconds <= 0)
    }
}
