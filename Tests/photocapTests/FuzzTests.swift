import Foundation
import Testing
import TestSupport

/// A bounded fuzz run: JPEG, TIFF, HEIC and DNG seeds mutated (bit flips, interesting values,
/// cuts, repeated and dropped spans) and fed to every reader of the command line — `info`,
/// `info --json`, `orient --output`, `orient --lossless`, `orient --in-place`, `develop` and
/// MJPEG frame replay. Every run must end with status 0 or 1 (no signal, no hang), a failure
/// must be one line, JSON must parse, and nothing but the expected result may be left behind.
///
/// Each campaign (random bytes, structures) is bounded by `PHOTOCAP_FUZZ_SECONDS` (default 45)
/// of runs; `PHOTOCAP_FUZZ_SEED` replays them. The figures (runs, outcomes, results read back,
/// peak memory) are printed for the CI log.
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

    enum Reader: CaseIterable { case info, infoJSON, orient, lossless, inPlace, develop, mjpegFrame, heicProperties, acceptTruncated }

    static func readers(for format: String) -> [Reader] {
        switch format {
        case "jpeg": return [.info, .infoJSON, .orient, .lossless, .inPlace, .mjpegFrame, .acceptTruncated]
        case "dng": return [.info, .infoJSON, .develop, .orient]
        case "heic-exif": return [.heicProperties]
        case "tiff-turned": return [.orient, .inPlace]
        default: return [.info, .infoJSON, .orient, .inPlace]
        }
    }

    @Test("mutated JPEG, TIFF, HEIC and DNG files: no crash, hang or leftover in any reader")
    func fuzz() throws {
        let originals = try Self.originals()
        try Self.campaign("fuzz", formats: Self.formats, seed: Self.seed) { format, random in
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
        try Self.campaign("structure fuzz", formats: formats, seed: Self.seed ^ 0x57AC_7E0F) { format, random in
            mutators[format]!.mutated(originals[format]!, &random)
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

    /// Runs readers on mutations of the seeds for ``seconds``, cycling through `formats`.
    static func campaign(_ title: String, formats: [String], seed: UInt64,
                         mutate: (String, inout SeededGenerator) -> [UInt8]) throws {
        var random = SeededGenerator(seed: seed)
        var runs = 0, failures = 0, checked = 0, problems: [String] = []
        var peak = (bytes: 0, command: "")
        var slowest = 0.0
        let started = Date()
        while Date().timeIntervalSince(started) < Self.seconds, problems.count < 10 {
            let format = formats[runs % formats.count]
            let reader = Self.readers(for: format).randomElement(using: &random)!
            let bytes = mutate(format, &random)
            let folder = try TemporaryDirectory("photocap-fuzz")
            let output = folder.url.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            let fileExtension = String(format.prefix { $0 != "-" })
            let file = try folder.write(bytes, named: "input.\(fileExtension)")
            let arguments: [String] = switch reader {
            case .info: ["info", file]
            case .infoJSON: ["info", file, "--json"]
            case .orient: ["orient", file, "--output", output.path]
            case .lossless: ["orient", file, "--output", output.path, "--lossless"]
            case .inPlace: ["orient", file, "--in-place"]
            case .acceptTruncated: ["orient", file, "--output", output.path, "--accept-truncated"]
            case .heicProperties: ["orient", file, "--output", output.path, "--from-exif", "--pixels", "--quality", "50"]
            case .develop: ["develop", file, "--output", output.path + "/"]
            case .mjpegFrame: ["shoot", "--frame-file", file, "--frame-format", "mjpeg", "--frame-size", "64x64",
                               "--output", output.appendingPathComponent("shot.jpg").path]
            }
            let run = try MeasuredRun.run(TestPaths.photocap, arguments, deadline: Self.hangSeconds)
            runs += 1
            slowest = max(slowest, run.seconds)
            if run.peakBytes > peak.bytes { peak = (run.peakBytes, arguments.first!) }
            let name = "\(title) run \(runs) (\(format), \(reader), \(bytes.count) bytes, seed \(seed))"
            func problem(_ text: String) {
                problems.append("\(name): \(text)")
                let kept = FileManager.default.temporaryDirectory
                    .appendingPathComponent("photocap-\(title.replacingOccurrences(of: " ", with: "-"))-failure-\(runs).\(format)")
                try? Data(bytes).write(to: kept)
            }
            if run.timedOut { problem("hang: killed after \(Self.hangSeconds) s"); continue }
            if let signal = run.signal { problem("crash: signal \(signal); \(run.stderr)"); continue }
            guard run.status == 0 || run.status == 1 else { problem("exit status \(run.status!): \(run.stderr)"); continue }
            if run.status == 1 {
                failures += 1
                let lines = run.stderr.split(separator: "\n")
                if lines.count != 1 || !lines[0].hasPrefix("photocap: error: ") { problem("not one error line: \(run.stderr)") }
            }
            if reader == .infoJSON, run.status == 0, (try? JSONSerialization.jsonObject(with: run.stdout)) == nil {
                problem("invalid JSON: \(String(decoding: run.stdout, as: UTF8.self))")
            }
            if run.stderr.utf8.contains(0x1B) || run.stdout.contains(0x1B) { problem("raw ESC byte in the output") }
            // Left behind: anything but the input and, after success, the one result.
            let inFolder = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
            let outputs = try FileManager.default.contentsOfDirectory(atPath: output.path)
            if inFolder != ["input.\(fileExtension)", "out"] { problem("files left beside the input: \(inFolder)") }
            if run.status == 1 ? !outputs.isEmpty : outputs.contains(where: { $0.hasPrefix(".") }) {
                problem("files left in the output folder: \(outputs)")
            }
            if reader == .inPlace, run.status == 1, try Data(contentsOf: URL(fileURLWithPath: file)) != Data(bytes) {
                problem("a failed --in-place changed the file")
            }
            // What orient wrote with exit 0 must be a file other readers take.
            if run.status == 0, [.orient, .lossless, .inPlace, .acceptTruncated].contains(reader), format != "dng" {
                let written = reader == .inPlace ? [file] : outputs.map { output.appendingPathComponent($0).path }
                // A picture already upright is copied as it is: its damage is the input's.
                for path in written where try Data(contentsOf: URL(fileURLWithPath: path)) != Data(bytes) {
                    checked += 1
                    if let rejection = try Self.rejection(of: path) { problem("the result is unreadable: \(rejection)") }
                }
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        print("\(title): \(runs) runs in \(Int(elapsed)) s (seed \(seed)): \(runs - failures) accepted, \(failures) refused "
              + "with one error line, \(checked) results read back, \(problems.count) problems; peak memory \(peak.bytes / 1_048_576) MB (photocap "
              + "\(peak.command)), slowest run \(String(format: "%.2f", slowest)) s")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(runs >= 20, "only \(runs) runs in \(Self.seconds) s")
    }
}
