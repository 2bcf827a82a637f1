import ArgumentParser
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PhotoCapture
import PhotocapCommands
import PhotoCaptureVision
import Synchronization

extension WatchCommand {
    /// One second of the session.
    struct Report: Encodable {
        let second: Int
        let framesPerSecond: Double
        let framesStreamed: Int
        let dropped: [String: Int]
        let sceneStatus: String
        let isFlashScene: Bool
        let meanLuma: Double?
        let preview: String?
        /// With `--faces`: the faces of the latest analysed frame.
        let faces: [FaceReport]?
        /// With `--faces` or `--smart-framing`: the detector finding the faces, `YuNet` unless
        /// it could not load (then `Haar alt2`).
        let faceDetector: String?
    }

    /// The live session, reported on once a second until `--duration` or Ctrl-C.
    func watch() async throws {
        let camera: CaptureDevice
        // A frame file replays at a sensor's pace, so the report reads like a camera's.
        if let replay = try frameFile.camera(mounting: .upright, framesPerSecond: 30) {
            camera = replay
        } else {
            switch device {
            case "synthetic":
                camera = CaptureDevice.synthetic()
            case let path?:
                camera = try CaptureDevice.v4l2(path: path)
            case nil:
                camera = defaultCamera { CaptureDevice.synthetic() }
            }
        }
        let session = CaptureSession()
        let photos = PhotoOutput()
        let video = VideoDataOutput()
        try session.addInput(camera)
        try session.addOutput(photos)
        try session.addOutput(video)
        let monitor = camera.sceneMonitor
        // The video data output keeps the newest frame and drops the rest: this watcher only counts.
        let frames = video.frames()
        // The frames finish when the stream ends: at a clip's last frame, so does the watch.
        let streamEnded = Flag()
        let drain = Task {
            for await _ in frames {}
            streamEnded.set()
        }
        try await session.startRunning()
        let analysis: Analysis
        do {
            analysis = try startAnalysis(session: session, camera: camera, started: Date())
        } catch {
            await session.stopRunning()
            drain.cancel()
            throw error
        }

        let interrupted = Interrupt()
        defer { interrupted.restore() }
        var last = await camera.streamStatistics()
        var lastTime = Date()
        var second = 0
        while duration.map({ second < $0 }) ?? true {
            guard await interrupted.wait(seconds: 1) == false else { break }
            if streamEnded.isSet, frameFile.isClip {
                note("the clip ended at its last frame")
                break
            }
            second += 1
            let statistics = await camera.streamStatistics()
            let now = Date()
            let rate = Double(statistics.framesStreamed - last.framesStreamed) / now.timeIntervalSince(lastTime)
            (last, lastTime) = (statistics, now)
            var preview: String?
            if let previewFile {
                preview = try await refreshPreview(previewFile, from: photos, analysis: overlay ? analysis : nil)
            }
            let report = Report(
                second: second, framesPerSecond: (rate * 10).rounded() / 10, framesStreamed: statistics.framesStreamed,
                dropped: ["video": video.droppedFrameCount, "allConsumers": statistics.consumerDrops],
                sceneStatus: monitor.lighting.rawValue, isFlashScene: monitor.isFlashScene,
                meanLuma: monitor.latestReading.map { ($0.meanLuma * 10).rounded() / 10 }, preview: preview,
                faces: analysis.latestFaces.map { $0.map(FaceReport.init) }, faceDetector: analysis.faceDetectorName)
            if json {
                print(try jsonText(report))
            } else {
                print("\(second)s: \(report.framesPerSecond) fps, \(report.framesStreamed) frames, dropped video \(video.droppedFrameCount) "
                      + "(all consumers \(statistics.consumerDrops)), scene \(report.sceneStatus)"
                      + (report.meanLuma.map { ", luma \($0)" } ?? "") + (analysis.latestFaces.map(Self.facesNote) ?? ""))
            }
            fflush(nil)  // one line a second, also into a pipe
        }
        await stopAnalysis(analysis, session: session)
        await session.stopRunning()
        drain.cancel()
        if interrupted.happened { throw ExitCode(130) }
    }

    /// Takes the frame under way now (zero shutter lag: no stream change) and writes its upright
    /// preview over `path` atomically, with `analysis`'s overlay drawn on it when given.
    private func refreshPreview(_ path: String, from output: PhotoOutput, analysis: Analysis?) async throws -> String {
        var settings = PhotoSettings(format: .uncompressed)
        settings.previewDimensions = previewSize
        settings.orientationCompensation = .mode(.upright)
        let photo = try await output.capturePhoto(with: settings)
        guard let preview = photo.previewPixelBuffer else { throw fail("the camera delivered no preview") }
        let jpeg = try analysis.map { try overlaid(preview, photoSize: photo.resolvedSettings.photoDimensions, analysis: $0) }
            ?? preview.jpegData(quality: 80)
        try AtomicFileWriter.write(jpeg, to: path, overwrite: true)
        return path
    }
}

/// A flag set once, from any thread.
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// SIGINT (Ctrl-C) turned into a flag the loop polls, so the camera is stopped before exiting.
private final class Interrupt {
    private let source: DispatchSourceSignal
    private let flag = Flag()

    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let flag = flag
        source.setEventHandler { flag.set() }
        source.resume()
    }

    var happened: Bool { flag.isSet }

    /// Sleeps up to `seconds`, returning early (true) on Ctrl-C.
    func wait(seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if happened { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return happened
    }

    func restore() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
