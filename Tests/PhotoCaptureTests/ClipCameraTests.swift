import Foundation
import PhotoCapture
import Synchronization
import Testing
import TestSupport

/// A recorded clip (YUV4MPEG2) as a camera: its frames in order at its frame rate, timestamps on
/// its timeline, the end told to consumers or the clip looped, and malformed clips refused.
@Suite struct ClipCameraTests {
    static let size = PixelSize(width: 64, height: 48)
    static let lumaCount = 64 * 48

    /// A clip of `frames` frames at 10 fps made by ffmpeg from a licensed photo fading in from
    /// black (so every frame differs and the order shows), and the same frames decoded by ffmpeg
    /// to raw I420, independently of photocap, in full range as the video data output delivers.
    static func makeClip(_ folder: TemporaryDirectory, frames: Int) throws -> (path: String, raw: [[UInt8]]) {
        let clip = folder.path("clip.y4m")
        let raw = folder.path("clip.yuv")
        let photo = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-loop", "1", "-i", photo,
                                                   "-vf", "scale=64:48,format=yuv420p,fade=in:0:\(frames)",
                                                   "-frames:v", "\(frames)", "-r", "10", "-f", "yuv4mpegpipe", clip])
        #expect(made.status == 0, "\(made.stderr)")
        let decoded = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-i", clip, "-vf", "scale=in_range=tv:out_range=pc",
                                                      "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let frameBytes = lumaCount * 3 / 2
        #expect(bytes.count == frames * frameBytes)
        return (clip, stride(from: 0, to: bytes.count, by: frameBytes).map { Array(bytes[$0..<$0 + frameBytes]) })
    }

    /// Collects what a video data output delivers, and how its stream first ended (stopping the
    /// session ends it again, as not running).
    final class Collector: VideoDataOutputDelegate {
        let frames = Mutex<[VideoFrame]>([])
        let failure = Mutex<PhotoCaptureError?>(nil)
        func videoDataOutput(_ output: VideoDataOutput, didOutput frame: VideoFrame) { frames.withLock { $0.append(frame) } }
        func videoDataOutput(_ output: VideoDataOutput, didFailWith error: PhotoCaptureError) {
            failure.withLock { $0 = $0 ?? error }
        }
    }

    /// Runs `device` with a collecting video output until `done` holds or 5 s pass.
    static func play(_ device: CaptureDevice, until done: (Collector) -> Bool) async throws -> Collector {
        let session = CaptureSession()
        let video = VideoDataOutput()
        video.alwaysDiscardsLateVideoFrames = false
        let collector = Collector()
        video.setSampleBufferDelegate(collector)
        try session.addInput(device)
        try session.addOutput(video)
        try await session.startRunning()
        let deadline = ContinuousClock.now + .seconds(5)
        while !done(collector), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        await session.stopRunning()
        return collector
    }

    /// The largest difference between a delivered frame's planes and the raw I420 frame.
    static func largestDifference(_ frame: VideoFrame, _ raw: [UInt8]) -> Int {
        let delivered = frame.planes.flatMap(\.bytes)
        guard delivered.count == raw.count else { return .max }
        return zip(delivered, raw).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test func theClipPlaysEveryFrameInOrderAtItsRateAndEnds() async throws {
        let folder = try TemporaryDirectory("clip-plays")
        let (path, raw) = try Self.makeClip(folder, frames: 10)
        let device = try CaptureDevice.clip(path: path)
        let collector = try await Self.play(device) { $0.failure.withLock { $0 != nil } }
        let frames = collector.frames.withLock { $0 }
        // Told that it ended, and after how many frames.
        #expect(collector.failure.withLock { $0 } == PhotoCaptureError(.clipEnded(path: path, frames: 10)))
        #expect(frames.map(\.sequence) == Array(1...10))
        for (index, frame) in frames.enumerated() {
            #expect(frame.size == Self.size)
            // The same bytes as ffmpeg's decode: a copy of the planes, not a conversion.
            #expect(Self.largestDifference(frame, raw[index]) <= 1, "frame \(index)")
        }
        // The frames really differ, so the comparison checks the order.
        #expect(Self.largestDifference(frames[1], raw[8]) > 20)
        // 10 fps: 100 ms apart on the clip's timeline.
        #expect(zip(frames.dropFirst(), frames).allSatisfy { $0.timestamp - $1.timestamp == 100_000_000 })
    }

    @Test func aSessionStartedAgainAfterTheEndPlaysTheClipFromItsStart() async throws {
        let folder = try TemporaryDirectory("clip-again")
        let (path, raw) = try Self.makeClip(folder, frames: 3)
        let session = CaptureSession()
        let video = VideoDataOutput()
        video.alwaysDiscardsLateVideoFrames = false
        let collector = Collector()
        video.setSampleBufferDelegate(collector)
        try session.addInput(try CaptureDevice.clip(path: path))
        try session.addOutput(video)
        defer { Task { await session.stopRunning() } }
        for run in 1...2 {
            try await session.startRunning()
            let deadline = ContinuousClock.now + .seconds(5)
            while collector.frames.withLock({ $0.count }) < 3 * run, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(300))
            await session.stopRunning()
        }
        let frames = collector.frames.withLock { $0 }
        #expect(collector.failure.withLock { $0 } == PhotoCaptureError(.clipEnded(path: path, frames: 3)))
        #expect(frames.map(\.sequence) == [1, 2, 3, 1, 2, 3])
        for (index, frame) in frames.enumerated() {
            #expect(Self.largestDifference(frame, raw[index % 3]) <= 1, "frame \(index)")
        }
        // The second run is on the clip's timeline too: one frame interval apart.
        #expect(frames[4].timestamp - frames[3].timestamp == 100_000_000)
    }

    @Test func aPhotoAfterTheEndFailsWithItUntilTheSessionStartsAgain() async throws {
        let folder = try TemporaryDirectory("clip-photo-after-end")
        let (path, _) = try Self.makeClip(folder, frames: 3)
        let (session, output) = try await runningSession(try CaptureDevice.clip(path: path))
        defer { Task { await session.stopRunning() } }
        _ = try await output.capturePhoto(with: PhotoSettings(format: .jpeg))
        try await Task.sleep(for: .milliseconds(700))
        // Not the clip played again: the end, as the consumers were told.
        await #expect {
            _ = try await output.capturePhoto(with: PhotoSettings(format: .jpeg))
        } throws: { error in
            (error as? PhotoCaptureError)?.code == .clipEnded(path: path, frames: 3)
        }
        await session.stopRunning()
        try await session.startRunning()
        let photo = try await output.capturePhoto(with: PhotoSettings(format: .jpeg))
        #expect(photo.resolvedSettings.photoDimensions == Self.size)
    }

    /// Frames are read as they are due, not loaded when the camera opens: frames appended to
    /// the file after the camera opened are played.
    @Test func framesAppendedAfterTheCameraOpenedArePlayed() async throws {
        let folder = try TemporaryDirectory("clip-appended")
        func frame(_ value: Int) -> [UInt8] { Array("FRAME\n".utf8) + [UInt8](repeating: UInt8(value), count: Self.lumaCount * 3 / 2) }
        let path = try folder.write(Array("YUV4MPEG2 W64 H48 F10:1 C420jpeg\n".utf8) + frame(40) + frame(70), named: "growing.y4m")
        let device = try CaptureDevice.clip(path: path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: frame(100) + frame(130) + frame(160))
        try handle.close()
        let collector = try await Self.play(device) { $0.failure.withLock { $0 != nil } }
        let frames = collector.frames.withLock { $0 }
        #expect(collector.failure.withLock { $0 } == PhotoCaptureError(.clipEnded(path: path, frames: 5)))
        #expect(frames.map(\.sequence) == Array(1...5))
        // Each frame's own level (in full range now): rising as written.
        let levels = frames.map { Int($0.planes[0].bytes[0]) }
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 + 20 < $1 }, "\(levels)")
    }

    @Test func aLoopingClipStartsAgainOnATimelineThatGoesOn() async throws {
        let folder = try TemporaryDirectory("clip-loops")
        let (path, raw) = try Self.makeClip(folder, frames: 3)
        let device = try CaptureDevice.clip(path: path, loops: true)
        let collector = try await Self.play(device) { $0.frames.withLock { $0.count >= 8 } }
        let frames = collector.frames.withLock { $0 }
        #expect(collector.failure.withLock { $0 } == nil || collector.failure.withLock { $0 } == PhotoCaptureError(.sessionNotRunning))
        try #require(frames.count >= 8)
        #expect(frames.prefix(8).map(\.sequence) == Array(1...8))
        for (index, frame) in frames.prefix(8).enumerated() {
            #expect(Self.largestDifference(frame, raw[index % 3]) <= 1, "frame \(index)")
        }
        #expect(zip(frames.dropFirst(), frames).allSatisfy { $0.timestamp - $1.timestamp == 100_000_000 })
    }

    @Test func aTruncatedFrameEndsTheStreamWithItsIndexAndSizes() async throws {
        let folder = try TemporaryDirectory("clip-truncated")
        let header = Array("YUV4MPEG2 W64 H48 F10:1 C420jpeg\n".utf8)
        let frame = Array("FRAME\n".utf8) + [UInt8](repeating: 128, count: Self.lumaCount * 3 / 2)
        let path = try folder.write(header + frame + Array("FRAME\n".utf8) + [1, 2, 3], named: "short.y4m")
        let collector = try await Self.play(try CaptureDevice.clip(path: path)) { $0.failure.withLock { $0 != nil } }
        #expect(collector.frames.withLock { $0.count } == 1)
        #expect(collector.failure.withLock { $0 } == PhotoCaptureError(.clipUnreadable(
            path: path, .truncatedFrame(index: 1, expected: Self.lumaCount * 3 / 2, actual: 3))))
    }

    @Test(arguments: [
        ("NOTY4M W64 H48 F10:1\n", ClipError.notYUV4MPEG2),
        ("YUV4MPEG2 W64 H48 F10:1", .headerUnterminated(limit: 1024)),
        ("YUV4MPEG2 H48 F10:1\n", .missingParameter("W")),
        ("YUV4MPEG2 W64 F10:1\n", .missingParameter("H")),
        ("YUV4MPEG2 W64 H48 C420\n", .missingParameter("F")),
        ("YUV4MPEG2 W0 H48 F10:1\n", .invalidParameter("W", value: "0")),
        ("YUV4MPEG2 W64 H-48 F10:1\n", .invalidParameter("H", value: "-48")),
        ("YUV4MPEG2 W99999999999 H48 F10:1\n", .invalidParameter("W", value: "99999999999")),
        ("YUV4MPEG2 W64 H48 F0:1\n", .invalidParameter("F", value: "0:1")),
        ("YUV4MPEG2 W64 H48 F25\n", .invalidParameter("F", value: "25")),
        ("YUV4MPEG2 W64 H48 F10:1 C422\n", .unsupportedChroma("422")),
        ("YUV4MPEG2 W64 H48 F10:1 C444\n", .unsupportedChroma("444")),
        ("YUV4MPEG2 W64 H48 F10:1 Cmono\n", .unsupportedChroma("mono")),
        ("YUV4MPEG2 W64 H48 F10:1 C420p10\n", .unsupportedChroma("420p10")),
        ("YUV4MPEG2 W63 H48 F10:1\n", .oddSize(PixelSize(width: 63, height: 48))),
        ("YUV4MPEG2 W64 H48 F10:1 C420mpeg2\n", .noFrames),
        ("YUV4MPEG2 W64 H48 F10:1 C420paldv\nFRAM\n", .invalidFrameHeader(index: 0)),
    ])
    func aMalformedClipIsRefusedWithItsReason(header: String, expected: ClipError) throws {
        let folder = try TemporaryDirectory("clip-malformed")
        let path = try folder.write(Array(header.utf8), named: "bad.y4m")
        #expect(throws: PhotoCaptureError(.clipUnreadable(path: path, expected))) { try CaptureDevice.clip(path: path) }
        // Chained, not turned into words.
        #expect(PhotoCaptureError(.clipUnreadable(path: path, expected)).underlyingError as? ClipError == expected)
    }

    @Test func anNTSCRateSpacesTheFramesBy1001Over30000OfASecond() async throws {
        let folder = try TemporaryDirectory("clip-ntsc")
        let header = Array("YUV4MPEG2 W64 H48 F30000:1001 Ip A1:1 C420mpeg2\n".utf8)
        var bytes = header
        for value in 0..<7 { bytes += Array("FRAME\n".utf8) + [UInt8](repeating: UInt8(40 + value * 20), count: Self.lumaCount * 3 / 2) }
        let path = try folder.write(bytes, named: "ntsc.y4m")
        let collector = try await Self.play(try CaptureDevice.clip(path: path)) { $0.failure.withLock { $0 != nil } }
        let frames = collector.frames.withLock { $0 }
        #expect(collector.failure.withLock { $0 } == PhotoCaptureError(.clipEnded(path: path, frames: 7)))
        #expect(frames.map(\.sequence) == Array(1...7))
        // Frame n at n × 1001/30000 s from the first, to the nanosecond (rounded down).
        let first = try #require(frames.first).timestamp
        #expect(frames.enumerated().allSatisfy { $1.timestamp - first == UInt64($0) * 1001 * 1_000_000_000 / 30000 })
    }

    @Test func aClipBeyondThePixelBudgetIsRefusedBeforeAFrameIsRead() throws {
        let folder = try TemporaryDirectory("clip-huge")
        let path = try folder.write(Array("YUV4MPEG2 W65534 H65534 F10:1 C420\nFRAME\n".utf8), named: "huge.y4m")
        #expect {
            try CaptureDevice.clip(path: path)
        } throws: { error in
            guard let error = error as? PhotoCaptureError, case .clipUnreadable(_, .imaging) = error.code else { return false }
            return true
        }
    }
}
