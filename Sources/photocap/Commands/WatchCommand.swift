import ArgumentParser
import Dispatch
import Foundation
import PhotoCapture
import Synchronization

/// `photocap watch`: runs the live session and reports on it once a second.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Run the camera's live session and report once a second: frame rate, frames dropped per consumer, scene status.",
        discussion: """
            Ctrl-C stops the camera cleanly (exit status 130); the preview file, if any, is always \
            a whole JPEG (written to a temporary file and renamed).

            Examples:
              photocap watch --device synthetic --duration 5
              photocap watch --device /dev/video0 --json --preview-file view.jpg
            """)

    @Option(help: "Camera: a device path, or 'synthetic' for the built-in synthetic camera. Default: the first camera, else the synthetic camera.")
    var device: String?

    @Option(help: "Stop after this many seconds. Default: until Ctrl-C.")
    var duration: Int?

    @Option(name: .customLong("preview-file"), help: "Keep an upright JPEG preview of the stream at this path, refreshed once a second.")
    var previewFile: String?

    @Option(name: .customLong("preview-size"), help: "Largest preview size, WIDTHxHEIGHT.")
    var previewSize: PixelSize = PixelSize(width: 640, height: 480)

    @Flag(help: "Print one JSON line per second.")
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
    }

    func validate() throws {
        if let duration, duration < 1 { throw ValidationError("--duration must be at least 1 second, got \(duration)") }
        if previewSize.width < 16 || previewSize.height < 16 { throw ValidationError("--preview-size must be at least 16x16") }
    }

    func run() async throws {
        let camera: CaptureDevice
        switch device {
        case "synthetic":
            camera = CaptureDevice.synthetic()
        case let path?:
            camera = try CaptureDevice.v4l2(path: path)
        case nil:
            camera = defaultCamera { CaptureDevice.synthetic() }
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
                preview = try await refreshPreview(previewFile, from: photos)
            }
            let report = Report(
                second: second, framesPerSecond: (rate * 10).rounded() / 10, framesStreamed: statistics.framesStreamed,
                dropped: ["video": video.droppedFrameCount, "allConsumers": statistics.consumerDrops],
                sceneStatus: monitor.status.rawValue, isFlashScene: monitor.isFlashScene,
                meanLuma: monitor.latestReading.map { ($0.meanLuma * 10).rounded() / 10 }, preview: preview)
            if json {
                print(try jsonText(report))
            } else {
                print("\(second)s: \(report.framesPerSecond) fps, \(report.framesStreamed) frames, dropped video \(video.droppedFrameCount) "
                      + "(all consumers \(statistics.consumerDrops)), scene \(report.sceneStatus)"
                      + (report.meanLuma.map { ", luma \($0)" } ?? ""))
            }
            fflush(nil)  // one line a second, also into a pipe
        }
        await session.stopRunning()
        drain.cancel()
        if interrupted.happened { throw ExitCode(130) }
    }

    /// Takes the frame under way now (zero shutter lag: no stream change) and writes its upright
    /// preview over `path` atomically.
    private func refreshPreview(_ path: String, from output: PhotoOutput) async throws -> String {
        var settings = PhotoSettings(format: .uncompressed)
        settings.previewDimensions = previewSize
        settings.orientationCompensation = .upright
        let photo = try await output.capturePhoto(with: settings)
        guard let preview = photo.previewPixelBuffer else { throw fail("the camera delivered no preview") }
        try AtomicFileWriter.write(try preview.jpegData(quality: 80), to: path, overwrite: true)
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
