import ArgumentParser
import CImagingKernels
import Codecs
import Foundation
import PhotoCapture

/// `photocap-benchmark`: pipeline cost against the bare codec, measured side by side. Kept apart
/// from the product (as swift-nio keeps its performance tester), so the CLI carries no benchmark
/// code and the benchmark may reach the layers below the public API.
@main
struct BenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photocap-benchmark",
        abstract: "Measure the capture pipeline against the bare JPEG encoder on one frame.",
        discussion: """
            Runs every case in turn, round-robin, on the same YUYV frame and reports medians and \
            ratios to the bare tjCompressFromYUVPlanes encode (the floor). Then, when they are \
            installed, whole processes side by side: photocap shoot against ImageMagick and \
            ffmpeg turning the same frame into a rotated JPEG, and photocap orient against jhead \
            and ImageMagick turning a JPEG upright. Build with -c release for meaningful numbers.
            """)

    /// What the benchmark frame shows.
    enum Scene: String, ExpressibleByArgument, CaseIterable {
        /// The synthetic scene with sensor-like noise: the encoder works about as hard as on a
        /// photograph (flat colours make JPEG unrealistically cheap and inflate every ratio).
        case textured
        /// The synthetic scene as the synthetic camera renders it: flat colours.
        case flat
    }

    @Option(help: "Frame size.")
    var size = PixelSize(width: 4032, height: 3024)

    @Option(help: "Rounds; each round runs every case once.")
    var iterations = 12

    @Option(help: "JPEG quality.")
    var quality = 90

    @Option(name: .customLong("bracket-rounds"), help: "Rounds of the bracket comparison (3 members in parallel vs one after another); 0 skips it.")
    var bracketRounds = 8

    @Option(help: "The frame: textured (the synthetic scene with sensor-like noise) or flat.")
    var scene = Scene.textured

    @Option(name: .customLong("process-rounds"), help: "Rounds of the whole-process comparison with ImageMagick, ffmpeg and jhead; 0 skips it.")
    var processRounds = 5

    @Option(name: .customLong("batch-files"), help: "Copies of a 12 MP JPEG for batch orient vs jhead (500 is the target's batch); 0 skips it.")
    var batchFiles = 100

    @Option(name: .customLong("live-rounds"), help: "Rounds of the live-session measurements (loop cost, video data frame, request to frame in hand); 0 skips them.")
    var liveRounds = 3

    @Option(name: .customLong("face-rounds"), help: "Rounds of the face detection and smart framing measurements; 0 skips them.")
    var faceRounds = 20

    @Option(name: .customLong("merge-rounds"), help: "Rounds of the 12 MP frame merge (reference + 2 and + 4 neighbours: time and PSNR gain) and of the photos at each quality prioritization; 0 skips them.")
    var mergeRounds = 5

    @Option(name: .customLong("large-heic"), help: ArgumentHelp(
        "A very large HEIC (the target's is pillow_heif's tests/images/heif_special/200MP.heic) to turn with orient --pixels, measured first: peak memory and time against heif-convert + heif-enc.",
        valueName: "file"))
    var largeHEIC: String?

    @Option(name: .customLong("heic-rounds"), help: "Rounds of the HEIC comparisons (ultrafast with and without 90° compensation; photocap shoot against heif-enc, q50 medium); 0 skips them.")
    var heicRounds = 0

    /// The HEIC row: whole processes, the same 4:2:0 planes, quality 50, preset medium.
    static let heicTargetName = "HEIC vs heif-enc (photocap shoot vs heif-enc of the same planes)"

    func validate() throws {
        // The first round of each case warms caches and is not counted: one more must be.
        if iterations < 1 { throw ValidationError("--iterations must be at least 1, got \(iterations)") }
        for (name, rounds) in [("bracket-rounds", bracketRounds), ("process-rounds", processRounds), ("batch-files", batchFiles),
                               ("live-rounds", liveRounds), ("face-rounds", faceRounds), ("merge-rounds", mergeRounds),
                               ("heic-rounds", heicRounds)] where rounds < 0 {
            throw ValidationError("--\(name) must be 0 (skip) or more, got \(rounds)")
        }
    }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photocap-benchmark-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        if faceRounds > 0 {
            try await compareFaceDetection(rounds: faceRounds)
            try compareFaceDetectionOnMarkedPhotos(rounds: faceRounds)
        }
        if mergeRounds > 0 {
            try compareFrameMerging(rounds: mergeRounds)
            try await compareQualityPrioritization(rounds: mergeRounds, in: folder)
        }

        // The floor: the encoder alone on planes that are already converted.
        let scenePicture = picture()
        let frame = try FrameBuilder.frame(from: scenePicture, format: .yuyv)
        let framePath = folder.appendingPathComponent("frame.yuyv").path
        try frame.storage.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: framePath)) }
        let planes = try FrameConverter().convert(frame)
        let encoder = try JPEGEncoder(), stripEncoder = try JPEGEncoder()
        let cores = ProcessInfo.processInfo.activeProcessorCount

        var cases: [BenchmarkCase] = [
            ("bare tjCompressFromYUVPlanes", nil, { _ = try encoder.encode(planes, quality: self.quality); return .zero }),
            ("strip-parallel encode, \(cores) strips on \(cores) cores", nil, {
                _ = try stripEncoder.encodeInStrips(planes, quality: self.quality, strips: cores); return .zero }),
            ("conversion pass alone (YUYV -> J420)", nil, { _ = try FrameConverter().convert(frame); return .zero }),
            ("conversion pass alone, 90° (YUYV -> J420)", nil, { _ = try FrameConverter().convert(frame, applying: .right); return .zero }),
        ]
        let pipelines: [(String, SensorMounting)] = [
            ("pipeline: frame -> JPEG + EXIF + 160x120 thumbnail -> file", .upright),
            ("pipeline, 90° compensation", SensorMounting(rotation: 90)),
            ("pipeline, 180° compensation", SensorMounting(rotation: 180)),
            ("pipeline, mirror compensation", SensorMounting(rotation: 0, isMirrored: true)),
        ]
        for (index, (name, mounting)) in pipelines.enumerated() {
            let (session, output) = try await startSession(mounting: mounting, frameFile: framePath)
            let path = folder.appendingPathComponent("photo-\(index).jpg").path
            cases.append((name, session, jpegCapture(output: output, session: session, path: path)))
        }
        // The upright pipeline once more, its photo left in memory: what writing the file
        // (atomically, with fsync of the file and its folder) adds to the pipeline rows.
        let (inMemorySession, inMemoryOutput) = try await startSession(mounting: .upright, frameFile: framePath)
        cases.append(("pipeline, photo kept in memory (no file written)", inMemorySession,
                      jpegCapture(output: inMemoryOutput, session: inMemorySession, path: nil)))

        let cropCases = try await croppingCases(in: folder)
        cases += cropCases
        // Only the measured case's camera streams: the others (frame files at full speed) would
        // take the cores from it. Starting and stopping are not timed.
        for item in cases { await item.session?.stopRunning() }
        var samples = Array(repeating: [Double](), count: cases.count)
        let clock = ContinuousClock()
        for round in 0...iterations {
            for (index, item) in cases.enumerated() {
                try await item.session?.startRunning()
                let start = clock.now
                let waited = try await item.run()
                let elapsed = clock.now - start - waited
                await item.session?.stopRunning()
                // Round 0 warms caches and encoder state and is not counted.
                if round > 0 { samples[index].append(elapsed.milliseconds) }
            }
        }
        let medians = samples.map(\.median)
        print("photocap benchmark: \(size) YUYV frame (\(scene.rawValue) scene), JPEG q\(quality), \(iterations) rounds, medians, "
              + "row kernels: \(pc_kernels_use_avx2() != 0 ? "AVX2" : "baseline")")
        for (index, item) in cases.enumerated() {
            let ratio = medians[index] / medians[0]
            print("  " + item.name.padded(to: 62) + String(format: " %8.2f ms  %5.2fx", medians[index], ratio))
        }
        let pipeline = cases.count - cropCases.count - pipelines.count - 1, inMemory = pipeline + pipelines.count
        var targets = TargetTable()
        targets.add("pipeline (frame -> JPEG + EXIF + thumbnail -> file) vs bare encode", medians[pipeline] / medians[0],
                    target: "<= 1.15x, then <= 0.65x")
        targets.add("strip-parallel encode vs bare encode", medians[1] / medians[0], target: "< 1.0x")
        targets.add("90° compensation vs none, whole pipeline", medians[pipeline + 1] / medians[pipeline], target: "<= 1.08x")
        if heicRounds > 0 {
            try await compareHEIC(in: folder, frameFile: framePath)
            let heic = ProcessComparison(size: size, quality: ProcessComparison.heicQuality, rounds: heicRounds, folder: folder)
            targets.add(Self.heicTargetName, processes: try heic.heicVersusHeifEnc(frameFile: framePath, planes: planes, picture: scenePicture),
                        target: "<= 0.9x")
        } else {
            targets.add(Self.heicTargetName, nil, target: "<= 0.9x", note: "not run (--heic-rounds 0)")
        }
        print(String(format: "  compensation vs none, whole pipeline: 90° %.2fx; 180° %.2fx; mirror %.2fx",
                     medians[pipeline + 1] / medians[pipeline], medians[pipeline + 2] / medians[pipeline],
                     medians[pipeline + 3] / medians[pipeline]))
        print(String(format: "  writing the file adds %.2f ms to the upright pipeline; without it %.2fx of the bare encode",
                     medians[pipeline] - medians[inMemory], medians[inMemory] / medians[0]))
        print(String(format: "  16:9 frame with 90° compensation, 1:1 crop vs uncropped: %.2fx",
                     medians[cases.count - 1] / medians[cases.count - 2]))
        if processRounds > 0 {
            var comparison = ProcessComparison(size: size, quality: quality, rounds: processRounds, folder: folder)
            comparison.batchFiles = batchFiles
            let ratios = try comparison.run(picture: scenePicture, detailed: picture(noise: 24))
            targets.add("photocap orient --lossless --in-place vs jhead -autorot", processes: ratios.orientVersusJhead, target: "<= 0.5x")
            targets.add("photocap shoot --frame-file (90°) vs ffmpeg transpose", processes: ratios.shootVersusFFmpeg, target: "<= 0.25x")
            targets.add("photocap shoot --frame-file vs cjpeg, raw RGB -> JPEG q\(quality)", processes: ratios.shootVersusCjpeg, target: "<= 0.6x")
            targets.add("batch orient of \(batchFiles) copies vs jhead -autorot over the same files", processes: ratios.batchOrientVersusJhead,
                        target: "<= 0.4x")
        }
        if bracketRounds > 0 {
            let bracket = try await compareBracket(in: folder)
            targets.add("bracket of 3 vs the members one after another, work alone", bracket.workAlone, target: "<= 0.65x")
            targets.add("bracket of 3 vs the members one after another, 30 fps", bracket.cameraPace, target: "<= 0.65x")
        }
        if liveRounds > 0 { try await compareLive(frameFile: framePath) }
        // Last: the gigabytes it churns through would slow the first touch of fresh memory in
        // every row measured after it (see ProcessComparison.largeHEIC).
        var largeHEICResult: ProcessComparison.LargeHEICResult?
        if let largeHEIC {
            print("photocap benchmark: orient --pixels of a large HEIC against libheif's tools")
            let info = try ImageFileInfo(data: [UInt8](try Data(contentsOf: URL(fileURLWithPath: largeHEIC))))
            largeHEICResult = try ProcessComparison(size: size, quality: quality, rounds: 1, folder: folder)
                .largeHEIC(largeHEIC, decodedSize: (info.displayedSize.width, info.displayedSize.height))
        }
        let notRun = "not run (--large-heic FILE)"
        targets.add("orient --pixels of a large HEIC: peak memory vs its decoded RGB bytes", largeHEICResult?.peakVersusDecoded,
                    target: "<= 2x", note: notRun)
        targets.add("orient --pixels of a large HEIC vs heif-convert + heif-enc", largeHEICResult?.timeVersusLibheifTools,
                    target: "<= 1.0x", note: largeHEICResult == nil ? notRun : "not measured (tool missing)")
        targets.print()
    }

    /// The benchmark frame's picture at `frameSize` (default ``size``): the upright scene; the
    /// frame-file camera's mounting turns nothing, every case reads the same bytes.
    /// `noise` (default 6 levels, σ ≈ 3.7: a moderately noisy sensor) sets the uniform noise
    /// added; 24 (σ ≈ 14) gives the detail of a photo, whose 12 MP JPEG at q90 takes 3-6 MB.
    func picture(size frameSize: PixelSize? = nil, noise: Int = 6) -> RGBImage {
        var image = SyntheticScene.image(size: frameSize ?? size)
        guard scene == .textured else { return image }
        // Deterministic.
        var state: UInt32 = 0x9E37_79B9
        let levels = 2 * UInt32(noise) + 1
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for index in pixels.indices {
                state = state &* 1_664_525 &+ 1_013_904_223
                pixels[index] = UInt8(clamping: Int(pixels[index]) + Int((state >> 24) % levels) - noise)
            }
        }
        return image
    }

    /// HEIC with 90° compensation against HEIC without: the encode dominates, so the transform
    /// should hardly show.
    private func compareHEIC(in folder: URL, frameFile: String) async throws {
        var outputs: [PhotoOutput] = []
        var sessions: [CaptureSession] = []
        for mounting in [SensorMounting.upright, SensorMounting(rotation: 90)] {
            let (session, output) = try await startSession(mounting: mounting, frameFile: frameFile)
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
                if round > 0 { samples[index].append(elapsed.milliseconds) }
            }
        }
        let medians = samples.map(\.median)
        print(String(format: "  HEIC (x265 ultrafast) pipeline: %.1f ms; with 90° compensation %.1f ms: %.3fx",
                     medians[0], medians[1], medians[1] / medians[0]))
        // Streaming frame files at full speed, they would take the cores from what comes next.
        for session in sessions { await session.stopRunning() }
    }

    /// A running frame-file camera replaying `frameFile` (of `frameSize`, default ``size``) at
    /// 1000 frames a second: a capture waits about a millisecond for its frame (not counted), and
    /// the stream takes little CPU from the measured work (at 100,000 frames a second its
    /// pump's timer wake-ups took a large share of a core); `mounting` only decides the compensation, the
    /// bytes are the same. Photos are cropped to `aspectRatio` when given.
    func startSession(mounting: SensorMounting, frameFile: String, frameSize: PixelSize? = nil,
                      aspectRatio: AspectRatio? = nil) async throws -> (CaptureSession, PhotoOutput) {
        let device = try CaptureDevice.frameFile(path: frameFile, format: .yuyv, size: frameSize ?? size, mounting: mounting,
                                                 framesPerSecond: 1_000)
        try await device.setDynamicAspectRatio(aspectRatio)
        return try await running(device)
    }

    /// A benchmarked case: its name, the camera session it captures from (started only while it
    /// runs), and the timed work, which returns the time it spent waiting for the camera's frame
    /// (not counted: the pipeline rows measure from the frame, as the bare encode does from planes).
    typealias BenchmarkCase = (name: String, session: CaptureSession?, run: () async throws -> Duration)

    /// A running session with a photo output on `device`.
    func running(_ device: CaptureDevice) async throws -> (CaptureSession, PhotoOutput) {
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(device)
        try session.addOutput(output)
        try await session.startRunning()
        return (session, output)
    }
}
