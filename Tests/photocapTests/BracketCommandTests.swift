import Foundation
import PhotoCapture
import Testing
import TestSupport

/// `photocap shoot --bracket` and `--bracket-manual` as a user runs them, judged by exiftool and
/// djpeg.
@Suite struct BracketCommandTests {
    static func photocap(_ arguments: [String]) throws -> ExternalTool.Output {
        try ExternalTool.run(TestPaths.photocap, arguments)
    }

    static func jsonLines(_ output: ExternalTool.Output) throws -> [[String: Any]] {
        try output.text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// exiftool's numeric values of `tag` for each file.
    static func exif(_ tag: String, _ files: [String]) throws -> [String] {
        try files.map { try ExternalTool.run("exiftool", ["-n", "-s3", "-" + tag, $0]).checked().text.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test func anEVBracketWritesOneFilePerMemberWithTheAppliedExposure() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--size", "640x480", "--bracket", "-2,0,+2",
                                     "--json", "--output", folder.appendingPathComponent("hdr.jpg").path])
        #expect(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["hdr-b1.jpg", "hdr-b2.jpg", "hdr-b3.jpg"])
        let files = names.map { folder.appendingPathComponent($0).path }

        let reports = try Self.jsonLines(run)
        #expect(reports.count == 3)
        #expect(reports.map { $0["sequenceCount"] as? Int } == [1, 2, 3])
        #expect(reports.allSatisfy { $0["photoCount"] as? Int == 3 })
        #expect(Set(reports.compactMap { $0["uniqueID"] as? Int }).count == 1)
        #expect(reports.map { $0["path"] as? String } == files)
        let brackets = reports.compactMap { $0["bracket"] as? [String: Any] }
        #expect(brackets.map { $0["requested"] as? String } == ["-2 EV", "0 EV", "+2 EV"])
        let applied = brackets.compactMap { $0["applied"] as? [String: Any] }
        #expect(applied.map { $0["exposureTargetBias"] as? Double } == [-2, 0, 2])
        #expect(applied.map { $0["exposureDuration"] as? Double } == [0.0025, 0.01, 0.04])

        #expect(try Self.exif("ExposureCompensation", files) == ["-2", "0", "2"])
        #expect(try Self.exif("ExposureTime", files) == ["0.0025", "0.01", "0.04"])
        for file in files { #expect(try ExternalTool.exiftoolValidationProblems(file) == []) }
        // Brighter member by member, as decoded by libjpeg-turbo.
        let means = try files.map { file -> Double in
            let image = try ReferenceDecoder.djpeg(file)
            return Double(image.pixels.reduce(0) { $0 + Int($1) }) / Double(image.pixels.count)
        }
        #expect(means[0] < means[1] && means[1] < means[2], "\(means)")
    }

    /// `--format dng --bracket`: one DNG per member named `-bN`, each valid and stating the
    /// exposure read back (the JSON's `applied`); `--raw-plus jpeg` (from CSI-2 packed `pgAA`
    /// frames) adds each member's JPEG.
    @Test(arguments: [nil, "jpeg"])
    func aRawBracketWritesADNGPerMember(rawPlus: String?) throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let formatOptions = rawPlus.map { ["--raw-plus", $0, "--pixel-format", "pgAA"] } ?? ["--format", "dng"]
        let target = folder.appendingPathComponent(rawPlus == nil ? "hdr.dng" : "hdr.jpg").path
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--size", "320x240", "--bracket", "-2,0,+2", "--json",
                                     "--output", target] + formatOptions)
        #expect(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let dngs = ["hdr-b1.dng", "hdr-b2.dng", "hdr-b3.dng"]
        #expect(names == (rawPlus == nil ? dngs : (dngs + ["hdr-b1.jpg", "hdr-b2.jpg", "hdr-b3.jpg"]).sorted()))
        let reports = try Self.jsonLines(run)
        let raws = reports.filter { $0["isRawPhoto"] as? Bool == true }
        #expect(raws.count == 3 && reports.count == (rawPlus == nil ? 3 : 6))
        #expect(raws.map { $0["path"] as? String } == dngs.map { folder.appendingPathComponent($0).path })
        let applied = raws.compactMap { ($0["bracket"] as? [String: Any])?["applied"] as? [String: Any] }
        #expect(applied.map { $0["exposureTargetBias"] as? Double } == [-2, 0, 2])
        let files = dngs.map { folder.appendingPathComponent($0).path }
        #expect(try Self.exif("ExposureCompensation", files) == ["-2", "0", "2"])
        #expect(try Self.exif("ISO", files) == ["100", "100", "100"])
        #expect(try files.map { try ExternalTool.run("exiftool", ["-s3", "-ExposureTime", $0]).checked().text }
            == ["1/400\n", "1/100\n", "1/25\n"])
        for file in files { #expect(try ExternalTool.exiftoolValidationProblems(file) == [], "\(file)") }
        if rawPlus != nil {
            let jpegs = ["hdr-b1.jpg", "hdr-b2.jpg", "hdr-b3.jpg"].map { folder.appendingPathComponent($0).path }
            #expect(try Self.exif("ExposureCompensation", jpegs) == ["-2", "0", "2"])
        }
    }

    @Test func aManualBracketSetsTimeAndISO() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--size", "320x240", "--bracket-manual", "1/100@100,1/50@200,@400",
                                     "--output", folder.path + "/"])
        #expect(run.status == 0, "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { folder.appendingPathComponent($0).path }
        #expect(files.count == 3)
        #expect(files.map { $0.hasSuffix("-b\(files.firstIndex(of: $0)! + 1).jpg") } == [true, true, true])
        #expect(try Self.exif("ExposureTime", files) == ["0.01", "0.02", "0.01"])
        #expect(try Self.exif("ISO", files) == ["100", "200", "400"])
        // Not a terminal: no progress lines, one summary line per photo on stdout.
        #expect(!run.stderr.contains("bracket member"))
        #expect(run.text.split(separator: "\n").count == 3)
        #expect(run.text.contains("bracket 2/3: 1/50 s @ ISO 200 → 1/50 s, ISO 200"), "\(run.text)")
    }

    @Test(arguments: [
        (["--bracket", "-2,zero,2"], "--bracket: 'zero' is not an exposure bias"),
        (["--bracket", "-2,,2"], "--bracket: empty member"),
        (["--bracket-manual", "1/100@"], "--bracket-manual: '1/100@' is not TIME@ISO"),
        (["--bracket", "0", "--bracket-manual", "1/100"], "--bracket and --bracket-manual exclude each other"),
        (["--settle-frames", "2"], "--settle-frames goes with --bracket"),
    ])
    func badBracketOptionsAreRefusedBeforeAnything(_ options: [String], _ message: String) throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--output", folder.path + "/"] + options)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func bracketsTheCameraCannotTakeFailNamedWithNothingWritten() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tooMany = try Self.photocap(["shoot", "--device", "synthetic", "--bracket", "-4,-3,-2,-1,0,1,2,3,4",
                                         "--output", folder.path + "/"])
        #expect(tooMany.status == 1)
        #expect(tooMany.stderr.contains("a bracket of 9 photos exceeds the camera's maximum of 8"), "\(tooMany.stderr)")
        // A frame file has no exposure controls.
        let frame = folder.appendingPathComponent("frame.rgb")
        try Data(repeating: 128, count: 32 * 16 * 3).write(to: frame)
        let noControls = try Self.photocap(["shoot", "--frame-file", frame.path, "--frame-format", "rgb24", "--frame-size", "32x16",
                                            "--bracket", "0,1", "--output", folder.path + "/"])
        #expect(noControls.status == 1)
        #expect(noControls.stderr.contains("has no exposure control"), "\(noControls.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["frame.rgb"])
    }

    @Test func existingMemberFilesStopTheBracketBeforeCapture() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("keep".utf8).write(to: folder.appendingPathComponent("x-b2.jpg"))
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--bracket", "0,1",
                                     "--output", folder.appendingPathComponent("x.jpg").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("x-b2.jpg already exists"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["x-b2.jpg"])
        #expect(try String(contentsOf: folder.appendingPathComponent("x-b2.jpg"), encoding: .utf8) == "keep")
    }

    /// SIGINT while a member waits for its settled frame: the controls are restored, the exit
    /// status is 130, and nothing half-written is left.
    @Test func sigintMidBracketRestoresTheControlsAndExits130() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 30 frames a second and 1000 frames to settle: each member takes 33 s.
        let run = try InterruptedRun(["shoot", "--device", "synthetic", "--size", "320x240", "--bracket", "-1,0,1",
                                      "--settle-frames", "1000", "--output", folder.path + "/"], interruptingAfter: 3)
        #expect(run.secondsToExit < 6)
        #expect(run.exited)
        #expect(run.status == 130)
        #expect(run.stderr.contains("interrupted: synthetic's exposure controls restored"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
