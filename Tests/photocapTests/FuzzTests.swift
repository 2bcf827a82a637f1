import Foundation
import Testing
import TestSupport

/// A bounded fuzz run: JPEG, TIFF, HEIC and DNG seeds mutated (bit flips, interesting values,
/// cuts, repeated and dropped spans), their structures rewritten (``StructureMutator``), and
/// the families an earlier fuzz found problems in (``FuzzFamilies``), fed to every reader of the
/// command line — `info`, `info --json`, `orient` in every mode, `compare`, `develop`, MJPEG
/// frame replay, `shoot` and `watch` of a clip. Every run must end with status 0 or 1 (2 for
/// `compare`'s refusal; no signal, no hang), a failure must be one line, JSON must parse, what
/// `orient` writes must be readable by another reader and, from an odd-sized file, the same
/// bytes run after run; nothing but the expected result may be left behind.
///
/// The whole fuzz is bounded by twice `PHOTOCAP_FUZZ_SECONDS` (default 45) of runs: a half of
/// it for random bytes, a half for structures, and one for the families, shared equally.
/// `PHOTOCAP_FUZZ_SEED` replays them. The figures (runs, outcomes, results read back, peak
/// memory) are printed for the CI log. An input that failed is kept in the temporary folder
/// under the name that ``corpus`` replays: copied into `TestImages/fuzz-corpus/`, it is
/// replayed every run.
@Suite struct FuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seconds = Double(environment["PHOTOCAP_FUZZ_SECONDS"] ?? "") ?? 45
    static let seed = UInt64(environment["PHOTOCAP_FUZZ_SEED"] ?? "") ?? 0x5EED_F0CA
    /// A hang: no reader takes this long on a 64x64 picture, even in a debug build on a busy machine.
    static let hangSeconds = 20.0

    static func mutated(_ seed: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        let interesting: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF]
        for _ in 0..<Int.random(in: 1...6, using: &random) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0: bytes[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            case 1: bytes[at] = interesting.randomElement(using: &random)!
            case 2:  // a large 16/32-bit value, as a size or offset field would hold
                for index in at..<min(bytes.count, at + Int.random(in: 2...4, using: &random)) { bytes[index] = 0xFF }
            case 3: bytes.removeSubrange(at...)  // truncated
            case 4:  // a span dropped
                bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &random)))
            case 5:  // a span repeated
                let span = bytes[at..<min(bytes.count, at + Int.random(in: 1...64, using: &random))]
                bytes.insert(contentsOf: span, at: at)
            default: bytes[at] = UInt8.random(in: 0...255, using: &random)
            }
        }
        return bytes
    }

    enum Reader: String, CaseIterable {
        case info, infoJSON, orient, lossless, inPlace, develop, mjpegFrame, heicProperties, acceptTruncated
        case heicPixels, compare, clipShoot, clipWatch
    }

    static func readers(for format: String) -> [Reader] {
        switch format {
        case "jpeg": return [.info, .infoJSON, .orient, .lossless, .inPlace, .mjpegFrame, .acceptTruncated]
        case "dng": return [.info, .infoJSON, .develop, .orient]
        case "heic-exif": return [.heicProperties]
        case "tiff-turned": return [.orient, .inPlace]
        case "tiff", "heic": return [.info, .infoJSON, .orient, .inPlace]
        default: return FuzzFamilies.readers(for: format)
        }
    }

    @Test("mutated JPEG, TIFF, HEIC and DNG files: no crash, hang or leftover in any reader")
    func fuzz() throws {
        let originals = try Self.originals()
        try Self.campaign("fuzz", formats: Self.formats, seed: Self.seed, seconds: Self.seconds / 2) { format, random in
            Self.mutated(originals[format]!, &random)
        }
    }

    /// Fields that locate and size structures, rewritten to point into other structures, past
    /// the end, or around in loops (``StructureMutator``): TIFF and DNG directories, the EXIF
    /// block of JPEG and HEIC, and HEIF boxes. Every TIFF and JPEG `orient` writes is read back
    /// by libtiff, ImageMagick or libjpeg, as in the campaign of random mutations.
    @Test("structures pointed into each other, counts past the end, links looping: no crash, every result readable")
    func structureFuzz() throws {
        let originals = try Self.originals()
        let mutators = originals.mapValues(StructureMutator.init)
        // The turned TIFF twice: its directory is the one a turn rewrites.
        let formats = ["tiff-turned", "jpeg", "tiff-turned", "heic-exif", "dng", "tiff", "heic"]
        try Self.campaign("structure fuzz", formats: formats, seed: Self.seed ^ 0x57AC_7E0F, seconds: Self.seconds / 2) { format, random in
            mutators[format]!.mutated(originals[format]!, &random)
        }
    }

    /// One family (``FuzzFamilies``) for its share of the time: real seeds of
    /// that kind, mutated where its readers trust them.
    @Test("the families mutated (extended XMP, MPF, XML entities, HEIC auxiliary boxes, Y4M, odd sizes): no crash, hang or leftover",
          arguments: FuzzFamilies.names)
    func familyFuzz(_ family: String) throws {
        let folder = try TemporaryDirectory("photocap-fuzz-family")
        let originals = try FuzzFamilies.seeds(of: family, in: folder)
        let mutators = originals.mapValues(StructureMutator.init)
        let index = UInt64(FuzzFamilies.names.firstIndex(of: family)!)
        try Self.campaign(family, formats: FuzzFamilies.formats(of: family), seed: Self.seed ^ (0xFA31_0000 + index),
                          seconds: Self.seconds / Double(FuzzFamilies.names.count), minimumRuns: 5) { format, random in
            FuzzFamilies.mutated(format, originals[format]!, mutator: mutators[format], &random)
        }
    }

    static let formats = ["jpeg", "tiff", "heic", "dng", "heic-exif", "tiff-turned"]

    /// The seeds by format.
    static func originals() throws -> [String: [UInt8]] {
        let seeds = try HostileSeeds()
        var originals = try Dictionary(uniqueKeysWithValues: formats.prefix(4).map { ($0, try seeds.bytes($0)) })
        // Seeds with an Orientation of 6 in IFD0, so their turns run: a HEIC oriented only by its
        // EXIF (irot none), which --from-exif writes into ipco/ipma/iloc; a TIFF, turned strip by strip.
        let turnedSeeds = try TemporaryDirectory("photocap-fuzz-seed")
        for (name, format) in [("heic-exif", "heic"), ("tiff-turned", "tiff")] {
            let path = try turnedSeeds.write(originals[format]!, named: "seed.\(format)")
            try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=6", path]).checked()
            originals[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        return originals
    }

    /// Why an independent reader rejects a file photocap wrote with exit 0, nil when it takes
    /// it: libtiff's `tiffinfo` and ImageMagick's `identify` for a TIFF, `djpeg` for a JPEG
    /// (its warnings, exit 2, are corrupt data carried over from the input, not refusals).
    static func rejection(of path: String) throws -> String? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "tif", "tiff":
            for (tool, arguments) in [("tiffinfo", [path]), ("identify", [path])] {
                let run = try ExternalTool.run(tool, arguments)
                if run.status != 0 { return "\(tool) rejects it (status \(run.status)): \(run.stderr)" }
            }
        case "jpg", "jpeg":
            let run = try ExternalTool.run("djpeg", ["-outfile", "/dev/null", path])
            if run.status != 0 && run.status != 2 { return "djpeg rejects it (status \(run.status)): \(run.stderr)" }
        default: break
        }
        return nil
    }

    /// The command line `reader` runs on `file`, writing into `output`.
    static func arguments(_ reader: Reader, _ file: String, output: URL) -> [String] {
        switch reader {
        case .info: ["info", file]
        case .infoJSON: ["info", file, "--json"]
        case .orient: ["orient", file, "--output", output.path]
        case .lossless: ["orient", file, "--output", output.path, "--lossless"]
        case .inPlace: ["orient", file, "--in-place"]
        case .acceptTruncated: ["orient", file, "--output", output.path, "--accept-truncated"]
        case .heicProperties: ["orient", file, "--output", output.path, "--from-exif", "--pixels", "--quality", "50"]
        case .heicPixels: ["orient", file, "--output", output.path, "--pixels"]
        case .develop: ["develop", file, "--output", output.path + "/"]
        case .compare: ["compare", file, file]
        case .mjpegFrame: ["shoot", "--frame-file", file, "--frame-format", "mjpeg", "--frame-size", "64x64",
                           "--output", output.appendingPathComponent("shot.jpg").path]
        case .clipShoot: ["shoot", "--frame-file", file, "--output", output.appendingPathComponent("shot.jpg").path]
        case .clipWatch: ["watch", "--frame-file", file, "--duration", "1"]
        }
    }

    /// One run of `reader` on `bytes` (a file of `fileExtension`) in a folder of its own: the
    /// run, its problems (none when it ended as every run must), and how many results were read
    /// back. `repeatable`: a result must be the same bytes when the run is made again.
    static func trial(_ reader: Reader, _ bytes: [UInt8], fileExtension: String, repeatable: Bool = false)
        throws -> (run: MeasuredRun, arguments: [String], problems: [String], checked: Int) {
        let folder = try TemporaryDirectory("photocap-fuzz")
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let file = try folder.write(bytes, named: "input.\(fileExtension)")
        let arguments = Self.arguments(reader, file, output: output)
        let run = try MeasuredRun.run(TestPaths.photocap, arguments, deadline: Self.hangSeconds)
        var problems: [String] = [], checked = 0
        if run.timedOut { return (run, arguments, ["hang: killed after \(Self.hangSeconds) s"], 0) }
        if let signal = run.signal { return (run, arguments, ["crash: signal \(signal); \(run.stderr)"], 0) }
        // compare says 1 for "differs" and 2 for a file it cannot read.
        let refused: Int32 = reader == .compare ? 2 : 1
        guard run.status == 0 || run.status == 1 || run.status == refused else {
            return (run, arguments, ["exit status \(run.status!): \(run.stderr)"], 0)
        }
        if run.status == refused {
            let lines = run.stderr.split(separator: "\n")
            if lines.count != 1 || !lines[0].hasPrefix("photocap: error: ") { problems.append("not one error line: \(run.stderr)") }
        }
        if reader == .infoJSON, run.status == 0, (try? JSONSerialization.jsonObject(with: run.stdout)) == nil {
            problems.append("invalid JSON: \(String(decoding: run.stdout, as: UTF8.self))")
        }
        if run.stderr.utf8.contains(0x1B) || run.stdout.contains(0x1B) { problems.append("raw ESC byte in the output") }
        // Left behind: anything but the input and, after success, the one result.
        let inFolder = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        let outputs = try FileManager.default.contentsOfDirectory(atPath: output.path)
        if inFolder != ["input.\(fileExtension)", "out"] { problems.append("files left beside the input: \(inFolder)") }
        if run.status == refused ? !outputs.isEmpty : outputs.contains(where: { $0.hasPrefix(".") }) {
            problems.append("files left in the output folder: \(outputs)")
        }
        if reader == .inPlace, run.status == 1, try Data(contentsOf: URL(fileURLWithPath: file)) != Data(bytes) {
            problems.append("a failed --in-place changed the file")
        }
        // What orient wrote with exit 0 must be a file other readers take.
        let writes: [Reader] = [.orient, .lossless, .inPlace, .acceptTruncated, .heicPixels, .heicProperties]
        if run.status == 0, writes.contains(reader), fileExtension != "dng" {
            let written = reader == .inPlace ? [file] : outputs.map { output.appendingPathComponent($0).path }
            // A picture already upright is copied as it is: its damage is the input's.
            for path in written where try Data(contentsOf: URL(fileURLWithPath: path)) != Data(bytes) {
                checked += 1
                if let rejection = try Self.rejection(of: path) { problems.append("the result is unreadable: \(rejection)") }
            }
            // The same bytes every run (an odd side once wrote heap bytes into the file).
            if repeatable, reader != .inPlace, let first = written.first {
                let again = folder.url.appendingPathComponent("again")
                try FileManager.default.createDirectory(at: again, withIntermediateDirectories: true)
                let second = try MeasuredRun.run(TestPaths.photocap, Self.arguments(reader, file, output: again), deadline: Self.hangSeconds)
                let repeated = try FileManager.default.contentsOfDirectory(atPath: again.path).map { again.appendingPathComponent($0).path }
                let same = try repeated.count == 1
                    && Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: repeated[0]))
                if second.status != 0 || !same {
                    problems.append("made again, the result differs (status \(String(describing: second.status)), \(repeated.count) files)")
                }
            }
        }
        return (run, arguments, problems, checked)
    }

    /// Runs readers on mutations of the seeds for `seconds`, cycling through `formats`; at
    /// least `minimumRuns` runs must fit.
    static func campaign(_ title: String, formats: [String], seed: UInt64, seconds: Double, minimumRuns: Int = 20,
                         mutate: (String, inout SeededGenerator) -> [UInt8]) throws {
        var random = SeededGenerator(seed: seed)
        var runs = 0, failures = 0, checked = 0, problems: [String] = []
        var peak = (bytes: 0, command: "")
        var slowest = 0.0
        let started = Date()
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("photocap-fuzz-failures")
        while Date().timeIntervalSince(started) < seconds, problems.count < 10 {
            let format = formats[runs % formats.count]
            let reader = Self.readers(for: format).randomElement(using: &random)!
            let bytes = mutate(format, &random)
            let fileExtension = FuzzFamilies.fileExtension(of: format)
            let trial = try Self.trial(reader, bytes, fileExtension: fileExtension, repeatable: format.hasPrefix("odd-"))
            runs += 1
            slowest = max(slowest, trial.run.seconds)
            if trial.run.peakBytes > peak.bytes { peak = (trial.run.peakBytes, trial.arguments.first!) }
            checked += trial.checked
            if trial.run.status == (reader == .compare ? 2 : 1) { failures += 1 }
            guard !trial.problems.isEmpty else { continue }
            // Named as the corpus names its cases: the reader, then the extension.
            let name = "\(title.replacingOccurrences(of: " ", with: "-"))-seed\(seed)-run\(runs).\(reader.rawValue).\(fileExtension)"
            try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
            try? Data(bytes).write(to: kept.appendingPathComponent(name))
            problems += trial.problems.map { "\(title) run \(runs) (\(format), \(reader), \(bytes.count) bytes, kept as \(kept.path)/\(name)): \($0)" }
        }
        let elapsed = Date().timeIntervalSince(started)
        print("\(title): \(runs) runs in \(Int(elapsed)) s (seed \(seed)): \(runs - failures) accepted, \(failures) refused "
              + "with one error line, \(checked) results read back, \(problems.count) problems; peak memory \(peak.bytes / 1_048_576) MB (photocap "
              + "\(peak.command)), slowest run \(String(format: "%.2f", slowest)) s")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(runs >= minimumRuns, "only \(runs) runs in \(seconds) s")
    }

    // MARK: Regression corpus

    /// `TestImages/fuzz-corpus/`: every input that ever failed, named `NAME.READER.EXTENSION`.
    static let corpusFolder = TestPaths.testImages.appendingPathComponent("fuzz-corpus")

    /// The corpus's cases, by file name.
    static let corpus: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: corpusFolder.path)) ?? [])
        .filter { $0.split(separator: ".").count == 3 }.sorted()

    /// What a file declaring 16384x16384 pixels (the default pixel limit) may cost any reader:
    /// it holds far less, so its size must be refused or bounded before anything is allocated.
    static let pixelLimitBytes = 200 * 1024 * 1024

    /// Cases past ``pixelLimitBytes`` not fixed yet, and why: each recorded as a known issue,
    /// which fails the test once the case passes, so that its entry goes.
    static let knownPeaks: [String: String] = [:]

    @Test("every input that ever failed replays as every fuzz run must end; a pixel-limit file within 200 MB (/usr/bin/time)",
          arguments: corpus)
    func corpusCase(_ name: String) throws {
        let parts = name.split(separator: ".").map(String.init)
        let reader = try #require(Reader(rawValue: parts[1]), "\(name): no reader named \(parts[1])")
        let bytes = [UInt8](try Data(contentsOf: Self.corpusFolder.appendingPathComponent(name)))
        let trial = try Self.trial(reader, bytes, fileExtension: parts[2], repeatable: name.hasPrefix("odd-"))
        #expect(trial.problems.isEmpty, "\(name): \(trial.problems.joined(separator: "\n"))")
        if name.contains("16384x16384") {
            // The kernel's count for photocap alone, from a shell, to the last page it touched.
            let folder = try TemporaryDirectory("photocap-fuzz-limit")
            let output = folder.url.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            let file = try folder.write(bytes, named: "input.\(parts[2])")
            let (run, peak) = try MeasuredRun.runTimed(TestPaths.photocap, Self.arguments(reader, file, output: output), deadline: 60)
            #expect(run.status != nil, "\(name): \(run.stderr)")
            if let reason = Self.knownPeaks[name] {
                withKnownIssue(Comment(rawValue: reason)) { #expect(peak < Self.pixelLimitBytes, "\(name): peak \(peak / 1_048_576) MB") }
            } else {
                #expect(peak < Self.pixelLimitBytes, "\(name): peak \(peak / 1_048_576) MB (/usr/bin/time)")
            }
        }
    }

    @Test("the corpus holds every family's failures and each pixel-limit format")
    func corpusIsComplete() {
        for prefix in ["extended-xmp", "xml-entities", "y4m", "odd-", "png-16384x16384", "tiff-16384x16384", "jpeg-16384x16384",
                       "heic-16384x16384", "dng-16384x16384"] {
            #expect(Self.corpus.contains { $0.hasPrefix(prefix) }, "no case named \(prefix)… in \(Self.corpusFolder.path)")
        }
    }
}
