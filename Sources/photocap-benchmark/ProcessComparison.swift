import Foundation
import Imaging

/// Whole processes doing the same work side by side, round-robin: photocap against the tools
/// people use today. Process start-up is part of every figure, ours included. Tools that are
/// not installed are skipped, with the package to install.
struct ProcessComparison {
    let size: PixelSize
    let quality: Int
    let rounds: Int
    let folder: URL
    /// Copies of the sideways JPEG that batch orient and jhead each turn in one run.
    var batchFiles = 100

    /// One command of a comparison group.
    struct Case {
        let name: String
        let tool: String
        let arguments: [String]
        /// Runs before each timed run (not timed), e.g. to restore a file changed in place.
        var prepare: () throws -> Void = {}
    }

    /// A compared command that did not succeed.
    struct Failure: Error, CustomStringConvertible { let description: String }

    static let packages = [
        "cjpeg": "libjpeg-turbo-progs", "convert": "imagemagick", "ffmpeg": "ffmpeg", "jhead": "jhead", "heif-enc": "libheif-examples",
    ]

    /// One process's time against another's: of the medians, and of the fastest runs.
    struct ProcessRatio {
        var median: Double
        var fastest: Double

        /// The other way round.
        var inverted: ProcessRatio { ProcessRatio(median: 1 / median, fastest: 1 / fastest) }
    }

    /// The ratios the target table tracks, photocap's time over the other tool's; nil where a
    /// tool is missing.
    struct Ratios {
        var shootVersusFFmpeg: ProcessRatio?
        var shootVersusCjpeg: ProcessRatio?
        var orientVersusJhead: ProcessRatio?
        var batchOrientVersusJhead: ProcessRatio?
    }

    /// Runs every comparison: the shoot rows on `picture`, the orient rows on a JPEG of `detailed`.
    func run(picture: RGBImage, detailed: RGBImage) throws -> Ratios {
        var ratios = Ratios()
        let photocap = try photocapExecutable()
        // UYVY: the packed 4:2:2 layout all three read (ImageMagick's "uyvy:", ffmpeg's uyvy422).
        let frame = try FrameBuilder.frame(from: picture, format: .uyvy)
        let framePath = path("frame.uyvy")
        try frame.storage.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: framePath)) }
        let dimensions = "\(size.width)x\(size.height)"

        print("whole processes, \(rounds) rounds, medians; ratios to photocap's process:")
        ratios.shootVersusFFmpeg = try compare("raw \(dimensions) UYVY frame -> JPEG q\(quality) turned 90°", [
            Case(name: "photocap shoot --frame-file --sensor-rotation 90", tool: photocap, arguments: [
                "shoot", "--frame-file", framePath, "--frame-format", "uyvy", "--frame-size", dimensions,
                "--sensor-rotation", "90", "--quality", "\(quality)", "--overwrite", "--output", path("shoot.jpg")]),
            Case(name: "ImageMagick convert -rotate 90", tool: "convert", arguments: [
                "-size", dimensions, "-depth", "8", "uyvy:\(framePath)", "-rotate", "90", "-sampling-factor", "2x2",
                "-quality", "\(quality)", path("convert.jpg")]),
            Case(name: "ffmpeg -vf transpose=clock", tool: "ffmpeg", arguments: [
                "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "uyvy422", "-s", dimensions, "-i", framePath,
                "-vf", "transpose=clock", "-pix_fmt", "yuvj420p", "-q:v", "2", "-frames:v", "1", path("ffmpeg.jpg")]),
        ])["ffmpeg -vf transpose=clock"].map(\.inverted)

        // The same pixels as RGB for cjpeg (PPM) and photocap (raw rgb24): 4:2:0, q\(quality).
        let rgbPath = path("frame.rgb"), ppmPath = path("frame.ppm")
        try Data(picture.pixels).write(to: URL(fileURLWithPath: rgbPath))
        try (Data("P6\n\(size.width) \(size.height)\n255\n".utf8) + Data(picture.pixels)).write(to: URL(fileURLWithPath: ppmPath))
        ratios.shootVersusCjpeg = try compare("raw \(dimensions) RGB -> JPEG q\(quality) (photocap also writes EXIF, a thumbnail and syncs)", [
            Case(name: "photocap shoot --frame-file (rgb24)", tool: photocap, arguments: [
                "shoot", "--frame-file", rgbPath, "--frame-format", "rgb24", "--frame-size", dimensions,
                "--quality", "\(quality)", "--overwrite", "--output", path("shoot-rgb.jpg")]),
            Case(name: "cjpeg -quality \(quality) -sample 2x2", tool: "cjpeg", arguments: [
                "-quality", "\(quality)", "-sample", "2x2", "-outfile", path("cjpeg.jpg"), ppmPath]),
        ])["cjpeg -quality \(quality) -sample 2x2"].map(\.inverted)

        // A JPEG as a camera writes it, of a picture as detailed as a photo (3-6 MB at q90 for
        // 12 MP): pixels as delivered, Orientation 6 (a --no-compensation capture), then one scan
        // without restart markers (photocap's strips carry them; jpegtran copies the
        // coefficients and the EXIF and leaves the markers out), which the turn decodes serially.
        let detailedPath = path("detailed.rgb"), sideways = path("sideways.jpg")
        try Data(detailed.pixels).write(to: URL(fileURLWithPath: detailedPath))
        try runProcess(photocap, ["shoot", "--frame-file", detailedPath, "--frame-format", "rgb24", "--frame-size", dimensions,
                                  "--sensor-rotation", "270", "--no-compensation", "--quality", "\(quality)",
                                  "--overwrite", "--output", sideways])
        var layout = "photocap's, with restart markers: jpegtran is not installed"
        if let jpegtran = Self.executable("jpegtran") {
            let camera = path("sideways-camera.jpg")
            try runProcess(jpegtran, ["-copy", "all", "-outfile", camera, sideways])
            try FileManager.default.removeItem(atPath: sideways)
            try FileManager.default.moveItem(atPath: camera, toPath: sideways)
            layout = "one scan, no restart markers"
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: sideways))
        let work = path("work.jpg")
        let restore = { try original.write(to: URL(fileURLWithPath: work)) }
        let megabytes = String(format: "%.1f MB", Double(original.count) / 1_000_000)
        ratios.orientVersusJhead = try compare("\(dimensions) JPEG (\(megabytes), \(layout)) with Orientation 6 -> upright, Orientation 1", [
            Case(name: "photocap orient --lossless --in-place", tool: photocap,
                 arguments: ["orient", "--lossless", "--in-place", work], prepare: restore),
            Case(name: "jhead -autorot (lossless, in place)", tool: "jhead", arguments: ["-q", "-autorot", work], prepare: restore),
            Case(name: "photocap orient (re-encoded)", tool: photocap,
                 arguments: ["orient", "--quality", "\(quality)", "--in-place", work], prepare: restore),
            Case(name: "ImageMagick convert -auto-orient (re-encoded)", tool: "convert",
                 arguments: [sideways, "-auto-orient", "-quality", "\(quality)", path("auto-orient.jpg")]),
        ])["jhead -autorot (lossless, in place)"].map(\.inverted)

        // A folder of copies, each turned in place: photocap on every core against jhead, which
        // takes one file after another. Restoring the copies is not timed.
        if batchFiles > 0 {
            let batch = folder.appendingPathComponent("batch")
            try FileManager.default.createDirectory(at: batch, withIntermediateDirectories: true)
            let copies = (1...batchFiles).map { batch.appendingPathComponent(String(format: "copy-%04d.jpg", $0)).path }
            let restoreAll = { for copy in copies { try original.write(to: URL(fileURLWithPath: copy)) } }
            ratios.batchOrientVersusJhead = try compare("\(batchFiles) copies of the \(dimensions) JPEG with Orientation 6, in place", [
                Case(name: "photocap orient --lossless --in-place FOLDER", tool: photocap,
                     arguments: ["orient", "--lossless", "--in-place", batch.path], prepare: restoreAll),
                Case(name: "jhead -autorot FILES (lossless, in place)", tool: "jhead", arguments: ["-q", "-autorot"] + copies,
                     prepare: restoreAll),
            ])["jhead -autorot FILES (lossless, in place)"].map(\.inverted)
        }
        return ratios
    }

    /// The photocap built beside this benchmark (the same configuration).
    func photocapExecutable() throws -> String {
        let benchmark = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let photocap = (benchmark as NSString).deletingLastPathComponent + "/photocap"
        guard FileManager.default.isExecutableFile(atPath: photocap) else {
            throw Failure(description: "\(photocap) is missing: build it first (swift build -c release)")
        }
        return photocap
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Times each available case `rounds` times, round-robin, after one untimed warm-up run;
    /// prints each median and fastest run and returns each run case's ratios to the first
    /// (photocap's) by name.
    @discardableResult
    func compare(_ title: String, _ cases: [Case]) throws -> [String: ProcessRatio] {
        print("  \(title)")
        var available: [(Case, String)] = []
        for item in cases {
            guard let executable = Self.executable(item.tool) else {
                print("    \(item.name): skipped, \(item.tool) is not installed (apt-get install \(Self.packages[item.tool] ?? item.tool))")
                continue
            }
            available.append((item, executable))
        }
        var samples = Array(repeating: [Double](), count: available.count)
        for round in 0...rounds {
            for (index, (item, executable)) in available.enumerated() {
                try item.prepare()
                let start = ContinuousClock.now
                try runProcess(executable, item.arguments)
                let elapsed = ContinuousClock.now - start
                if round > 0 { samples[index].append(elapsed.milliseconds) }
            }
        }
        guard let reference = samples.first?.median, let referenceFastest = samples.first?.min() else { return [:] }
        var ratios: [String: ProcessRatio] = [:]
        for (index, (item, _)) in available.enumerated() {
            let median = samples[index].median, fastest = samples[index].min() ?? median
            let ratio = ProcessRatio(median: median / reference, fastest: fastest / referenceFastest)
            ratios[item.name] = ratio
            // The fastest run beside the median: on a VM whose fresh memory now and then faults
            // in slowly, a few runs of a process can be far slower than the rest.
            print("    " + item.name.padded(to: 60)
                  + String(format: " %8.1f ms  %5.2fx  (fastest %.1f ms)", median, ratio.median, fastest))
        }
        return ratios
    }

    static func executable(_ tool: String) -> String? {
        if tool.hasPrefix("/") { return tool }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the process at the full path `executable` to completion; a failure is an error
    /// naming the command and its message.
    func runProcess(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(String(decoding: message, as: UTF8.self))")
        }
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}

extension String {
    /// The string padded with spaces to `width` characters, for table columns (Foundation's
    /// `%-60@` does not pad on Linux).
    func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
