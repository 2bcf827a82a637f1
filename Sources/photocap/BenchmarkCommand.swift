import ArgumentParser
import Codecs
import Foundation
import PhotoCapture

/// `photocap benchmark`: pipeline cost against the bare codec, measured side by side.
struct BenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark",
        abstract: "Measure the capture pipeline against the bare JPEG encoder on one frame.",
        discussion: """
            Runs every case in turn, round-robin, on the same synthetic YUYV frame and reports \
            medians and ratios to the bare tjCompressFromYUVPlanes encode (the floor). Build \
            with -c release for meaningful numbers.
            """)

    @Option(help: "Frame size.")
    var size = PixelSize(width: 4032, height: 3024)

    @Option(help: "Rounds; each round runs every case once.")
    var iterations = 12

    @Option(help: "JPEG quality.")
    var quality = 90

    @Option(name: .customLong("heic-rounds"), help: "Rounds of the HEIC comparison (ultrafast preset, with and without 90° compensation); 0 skips it.")
    var heicRounds = 0

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photocap-benchmark-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // The floor: the encoder alone on planes that are already converted.
        let frame = try FrameBuilder.frame(from: SyntheticScene.image(size: size), format: .yuyv)
        let planes = try FrameConverter().convert(frame)
        let encoder = try JPEGEncoder()

        var cases: [(name: String, run: () async throws -> Void)] = [
            ("bare tjCompressFromYUVPlanes", { _ = try encoder.encode(planes, quality: self.quality) }),
            ("conversion pass alone (YUYV -> J420)", { _ = try FrameConverter().convert(frame) }),
            ("conversion pass alone, 90° (YUYV -> J420)", { _ = try FrameConverter().convert(frame, applying: .right) }),
        ]
        let pipelines: [(String, SensorMounting)] = [
            ("pipeline: frame -> JPEG + EXIF + 160x120 thumbnail -> file", .upright),
            ("pipeline, 90° compensation", SensorMounting(rotation: 90)),
            ("pipeline, 180° compensation", SensorMounting(rotation: 180)),
            ("pipeline, mirror compensation", SensorMounting(rotation: 0, isMirrored: true)),
        ]
        for (index, (name, mounting)) in pipelines.enumerated() {
            let (session, output) = try await startSession(mounting: mounting)
            let path = folder.appendingPathComponent("photo-\(index).jpg").path
            cases.append((name, jpegCapture(output: output, session: session, path: path)))
        }

        let cropCases = try await croppingCases(in: folder)
        cases += cropCases
        var samples = Array(repeating: [Double](), count: cases.count)
        let clock = ContinuousClock()
        for round in 0...iterations {
            for (index, item) in cases.enumerated() {
                let start = clock.now
                try await item.run()
                let elapsed = clock.now - start
                // Round 0 warms caches and encoder state and is not counted.
                if round > 0 { samples[index].append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000) }
            }
        }
        let medians = samples.map { $0.sorted()[$0.count / 2] }
        print("photocap benchmark: \(size) YUYV frame, JPEG q\(quality), \(iterations) rounds, medians")
        for (index, item) in cases.enumerated() {
            let ratio = medians[index] / medians[0]
            print(String(format: "  %-62@ %8.2f ms  %5.2fx", item.name as NSString, medians[index], ratio))
        }
        let pipeline = cases.count - cropCases.count - pipelines.count
        if heicRounds > 0 { try await compareHEIC(in: folder) }
        print(String(format: "  compensation vs none, whole pipeline: 90° %.2fx; 180° %.2fx; mirror %.2fx",
                     medians[pipeline + 1] / medians[pipeline], medians[pipeline + 2] / medians[pipeline],
                     medians[pipeline + 3] / medians[pipeline]))
        print(String(format: "  16:9 frame with 90° compensation, 1:1 crop vs uncropped: %.2fx",
                     medians[cases.count - 1] / medians[cases.count - 2]))
    }

    /// HEIC with 90° compensation against HEIC without: the encode dominates, so the transform
    /// should hardly show.
    private func compareHEIC(in folder: URL) async throws {
        var outputs: [PhotoOutput] = []
        var sessions: [CaptureSession] = []
        for mounting in [SensorMounting.upright, SensorMounting(rotation: 90)] {
            let (session, output) = try await startSession(mounting: mounting)
            sessions.append(session)
            outputs.append(output)
        }
        var samples: [[Double]] = [[], []]
        for round in 0...heicRounds {
            for (index, output) in outputs.enumerated() {
                var settings = PhotoSettings(format: .heic)
                settings.heicEncodingSpeed = .ultrafast
                settings.framePixelFormat = .yuyv
                let start = ContinuousClock.now
                let photo = try await output.capturePhoto(with: settings)
                try photo.write(to: folder.appendingPathComponent("heic-\(index).heic").path, overwrite: true)
                let elapsed = ContinuousClock.now - start
                if round > 0 { samples[index].append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000) }
            }
        }
        let medians = samples.map { $0.sorted()[$0.count / 2] }
        print(String(format: "  HEIC (x265 ultrafast) pipeline: %.1f ms; with 90° compensation %.1f ms: %.3fx",
                     medians[0], medians[1], medians[1] / medians[0]))
        _ = sessions
    }

    /// A running synthetic camera that streams fast, so a capture hardly waits for its frame;
    /// `frame` (default ``size``) is the picture's size upright, cropped to `aspectRatio` if given.
    func startSession(mounting: SensorMounting, frame: PixelSize? = nil,
                      aspectRatio: AspectRatio? = nil) async throws -> (CaptureSession, PhotoOutput) {
        let upright = frame ?? size
        let maximum = mounting.compensation.swapsDimensions ? upright.transposed : upright
        let device = CaptureDevice.synthetic(.init(sensorMounting: mounting, maximumSize: maximum, framesPerSecond: 100_000))
        try await device.setDynamicAspectRatio(aspectRatio)
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(device)
        try session.addOutput(output)
        try await session.startRunning()
        return (session, output)
    }
}
