import ArgumentParser
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PhotoCaptureVision
import Synchronization

/// `photocap watch`: runs the live session and reports on it once a second.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Run the camera's live session and report once a second: frame rate, frames dropped per consumer, scene status, faces.",
        discussion: """
            Ctrl-C stops the camera cleanly (exit status 130); the preview file, if any, is always \
            a whole JPEG (written to a temporary file and renamed).

            --faces and --smart-framing run OpenCV's face detector on a 320x240 grey copy of the \
            stream, on their own queues: frames arriving while it is busy are skipped for the \
            analysis, never for the stream or the preview. Faces are in metadata coordinates: \
            normalised to the upright picture, origin top-left.

            Examples:
              photocap watch --device synthetic --duration 5
              photocap watch --device /dev/video0 --json --preview-file view.jpg
              photocap watch --faces --smart-framing --preview-file view.jpg --overlay
              photocap watch --frame-file people.rgb --frame-format rgb24 --frame-size 640x480 --faces --json
            """)

    @Option(help: "Camera: a device path, or 'synthetic' for the built-in synthetic camera. Default: the first camera, else the synthetic camera.")
    var device: String?

    @OptionGroup var frameFile: FrameFileOptions

    @Option(help: "Stop after this many seconds. Default: until Ctrl-C.")
    var duration: Int?

    @Option(name: .customLong("preview-file"), help: "Keep an upright JPEG preview of the stream at this path, refreshed once a second.")
    var previewFile: String?

    @Option(name: .customLong("preview-size"), help: "Largest preview size, WIDTHxHEIGHT.")
    var previewSize: PixelSize = PixelSize(width: 640, height: 480)

    @Flag(help: "Track faces and report them each second: ID and bounds (with --json also the analysed frame's timestamp).")
    var faces = false

    @Flag(name: .customLong("smart-framing"), help: "Run the smart framing monitor (every supported framing) and print each new recommended framing when it comes.")
    var smartFraming = false

    @Flag(help: "Draw the tracked faces with their IDs (green) and the recommended framing (magenta) onto the --preview-file picture.")
    var overlay = false

    @Flag(help: "Print one JSON line per second, and one per new recommendation.")
    var json = false

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
    }

    func validate() throws {
        if let duration, duration < 1 { throw ValidationError("--duration must be at least 1 second, got \(duration)") }
        if previewSize.width < 16 || previewSize.height < 16 { throw ValidationError("--preview-size must be at least 16x16") }
        try frameFile.validate(device: device)
        if overlay, previewFile == nil { throw ValidationError("--overlay draws onto the preview picture: give --preview-file PATH too") }
        if overlay, !faces, !smartFraming { throw ValidationError("--overlay draws what --faces and --smart-framing see: give one or both") }
    }

    func run() async throws {
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
        let drain = Task { for await _ in frames {} }
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
                sceneStatus: monitor.status.rawValue, isFlashScene: monitor.isFlashScene,
                meanLuma: monitor.latestReading.map { ($0.meanLuma * 10).rounded() / 10 }, preview: preview,
                faces: analysis.latestFaces.map { $0.map(FaceReport.init) })
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
        settings.orientationCompensation = .upright
        let photo = try await output.capturePhoto(with: settings)
        guard let preview = photo.previewPixelBuffer else { throw fail("the camera delivered no preview") }
        let jpeg = try analysis.map { try overlaid(preview, photoSize: photo.resolvedSettings.photoDimensions, analysis: $0) }
            ?? preview.jpegData(quality: 80)
        try AtomicFileWriter.write(jpeg, to: path, overwrite: true)
        return path
    }
}

/// SIGINT (Ctrl-C) turned into a flag the loop polls, so the camera is stopped before exiting.
private final class Interrupt {
    private let source: DispatchSourceSignal
    private let flag = Flag()

    private final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

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
