#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Imaging
import Testing
import TestSupport

/// `photocap compare FILE GOLDEN`: exit status 0 within tolerance, 1 differs, 2 unreadable;
/// the sentence, --json, --diff and record mode (PHOTOCAP_RECORD_GOLDENS).
@Suite(.enabled(if: ThirdPartyImages.folder != nil, Comment(rawValue: ThirdPartyImages.absentMessage)))
struct CompareCommandTests {
    static func image(_ name: String) -> String {
        ThirdPartyImages.folder!.appendingPathComponent("recurser-exif-orientation-examples/\(name).jpg").path
    }

    static func compare(_ arguments: [String], environment: [String: String]? = nil) throws -> ExternalTool.Output {
        var merged = ProcessInfo.processInfo.environment
        merged["PHOTOCAP_RECORD_GOLDENS"] = nil
        environment?.forEach { merged[$0.key] = $0.value }
        return try ExternalTool.run(TestPaths.photocap, ["compare"] + arguments, environment: merged)
    }

    static func json(_ output: ExternalTool.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
    }

    @Test("within tolerance: exit 0, the sentence with the figures; --json says match")
    func match() throws {
        // Landscape_6 is stored turned; shown, it is Landscape_1 re-encoded (mean 3.7).
        let run = try Self.compare([Self.image("Landscape_6"), Self.image("Landscape_1"), "--tolerance", "5"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text.contains("matches the golden (1800x1200, mean difference 3.7, max "), "\(run.text)")
        let json = try Self.json(try Self.compare([Self.image("Landscape_6"), Self.image("Landscape_1"), "--tolerance", "5", "--json"]))
        #expect(json["match"] as? Bool == true && json["verdict"] as? String == "match")
        #expect((json["meanAbsoluteDifference"] as? Double).map { $0 > 3 && $0 < 4 } == true)
        #expect((json["tolerance"] as? [String: Any])?["meanAbsoluteDifference"] as? Double == 5)
        #expect(json["psnr"] is Double && json["maximumAbsoluteDifference"] is Int)
    }

    @Test("beyond tolerance: exit 1; a mirrored file is named as such and --diff writes the difference image")
    func mirrored() throws {
        let folder = try TemporaryDirectory("compare")
        let mirrored = try folder.write([UInt8](Data(contentsOf: URL(fileURLWithPath: Self.image("Landscape_1")))), named: "mirrored.jpg")
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=2", mirrored]).checked()
        let diff = folder.path("diff.png")
        let run = try Self.compare([mirrored, Self.image("Landscape_1"), "--diff", diff])
        #expect(run.status == 1)
        #expect(run.text.hasPrefix("\(mirrored): differs in orientation: the picture shows the golden mirrored left-right; mean difference 74."), "\(run.text)")
        let landscape = Self.image("Landscape_1")
        #expect(run.text.contains("side by side (left: \(mirrored) compared with \(landscape) mirrored left-right, "
                                  + "red where more than that differs; right: \(landscape)): \(diff)"), "\(run.text)")
        #expect(try Self.json(try Self.compare([mirrored, landscape, "--diff", diff, "--overwrite", "--json"]))["diffKind"]
                    as? String == "turned side by side")
        #expect(try ReferenceDecoder.imageMagickStored(diff).size.description == "3608x1200")
        // An existing --diff is not replaced without --overwrite.
        let again = try Self.compare([mirrored, Self.image("Landscape_1"), "--diff", diff])
        #expect(again.status == 2 && again.stderr.contains("photocap: error: ") && again.stderr.contains(diff), "\(again.stderr)")
        #expect(try Self.compare([mirrored, Self.image("Landscape_1"), "--diff", diff, "--overwrite"]).status == 1)

        let json = try Self.json(try Self.compare([mirrored, Self.image("Landscape_1"), "--json"]))
        #expect(json["match"] as? Bool == false && json["verdict"] as? String == "orientation")
        #expect(json["turn"] as? String == "mirrored left-right")
    }

    @Test("a size mismatch: exit 1, both sizes named; --json gives both")
    func sizeMismatch() throws {
        let run = try Self.compare([Self.image("Portrait_1"), Self.image("Landscape_1")])
        #expect(run.status == 1)
        #expect(run.text.contains("differs in size: the picture is 1200x1800, the golden 1800x1200"), "\(run.text)")
        let json = try Self.json(try Self.compare([Self.image("Portrait_1"), Self.image("Landscape_1"), "--json"]))
        #expect(json["verdict"] as? String == "size")
        #expect((json["size"] as? [String: Int]) == ["width": 1200, "height": 1800])
        #expect((json["goldenSize"] as? [String: Int]) == ["width": 1800, "height": 1200])
        #expect(json["meanAbsoluteDifference"] == nil)
    }

    @Test("a size mismatch with --diff writes the picture (left) and the golden (right) side by side and says so")
    func sizeMismatchSideBySide() throws {
        let folder = try TemporaryDirectory("compare-side-by-side")
        let diff = folder.path("sizes.png")
        let (file, golden) = (Self.image("Portrait_1"), Self.image("Landscape_1"))
        let run = try Self.compare([file, golden, "--diff", diff])
        #expect(run.status == 1)
        #expect(run.text.contains("side by side (left: \(file), right: \(golden)): \(diff)"), "\(run.text)")
        // Checked against ImageMagick's own decodes of both files, 8 pixels apart, top-aligned.
        let written = try ReferenceDecoder.imageMagickStored(diff)
        #expect(written.size == PixelSize(width: 1200 + 8 + 1800, height: 1800))
        let left = try ReferenceDecoder.imageMagickAutoOriented(file), right = try ReferenceDecoder.imageMagickAutoOriented(golden)
        #expect(written.cropped(to: PixelRect(x: 0, y: 0, size: left.size)).meanAbsoluteDifference(to: left) <= 1)
        #expect(written.cropped(to: PixelRect(x: 1208, y: 0, size: right.size)).meanAbsoluteDifference(to: right) <= 1)
        // Below the shorter picture and in the gap: the plain ground.
        #expect(written.pixel(x: 1204, y: 10) == written.pixel(x: 2000, y: 1500))
        let json = try Self.json(try Self.compare([file, golden, "--diff", diff, "--overwrite", "--json"]))
        #expect(json["diff"] as? String == diff && json["diffKind"] as? String == "side by side")
    }

    @Test("a corrupt or missing file: exit 2, one clean line naming it, nothing on stdout")
    func corrupt() throws {
        let folder = try TemporaryDirectory("compare-corrupt")
        let cut = try folder.write(Array(try Data(contentsOf: URL(fileURLWithPath: Self.image("Landscape_1")))).prefix(5000).map { $0 }, named: "cut.jpg")
        let run = try Self.compare([cut, Self.image("Landscape_1")])
        #expect(run.status == 2)
        #expect(run.stderr == "photocap: error: \(cut): the JPEG file is truncated at byte 5000 (its data goes on past the end)\n")
        #expect(run.stdout.isEmpty)
        let absent = try Self.compare([Self.image("Landscape_1"), folder.path("none.png"), "--json"])
        #expect(absent.status == 2 && absent.stderr.hasSuffix("none.png: no such file\n"), "\(absent.stderr)")
        #expect(absent.stdout.isEmpty)
    }

    @Test("a FIFO or a device, as the picture or the golden, is named as such, as every command names it")
    func pathsThatAreNoFiles() throws {
        let folder = try TemporaryDirectory("compare-paths")
        let fifo = folder.path("pipe.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, reason) in [(fifo, "it is a FIFO (named pipe), not a regular file"), ("/dev/zero", "it is a character device, not a regular file")] {
            for arguments in [[path, Self.image("Landscape_1")], [Self.image("Landscape_1"), path]] {
                let run = try MeasuredRun.run(TestPaths.photocap, ["compare"] + arguments, deadline: 10)
                #expect(run.status == 2, "\(arguments): \(run.stderr)")
                #expect(run.stderr == "photocap: error: \(path): \(reason)\n", "\(arguments)")
            }
        }
    }

    @Test("a CMYK JPEG, as orient turns it, is compared as ImageMagick shows it, as the picture or the golden")
    func cmykJPEG() throws {
        let folder = try TemporaryDirectory("compare-cmyk")
        let cmyk = folder.path("cmyk.jpg")
        try ExternalTool.run("convert", ["-size", "64x48", "-seed", "48", "plasma:fractal", "-colorspace", "CMYK", "-quality", "95", cmyk]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", cmyk]).checked()
        let out = folder.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let turned = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", out, cmyk])
        #expect(turned.status == 0, "\(turned.stderr)")
        // What ImageMagick shows of each (the turn re-encodes: each file has its own).
        let (golden, turnedGolden) = (folder.path("golden.png"), folder.path("turned.png"))
        try ExternalTool.run("convert", [cmyk, "-auto-orient", "-colorspace", "sRGB", "PNG24:" + golden]).checked()
        try ExternalTool.run("convert", [out + "/cmyk.jpg", "-auto-orient", "-colorspace", "sRGB", "PNG24:" + turnedGolden]).checked()
        for arguments in [[cmyk, golden], [out + "/cmyk.jpg", turnedGolden], [golden, cmyk]] {
            let run = try Self.compare(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.text.contains("matches the golden (48x64"), "\(arguments): \(run.text)")
        }
    }

    /// Each TIFF is read by rows beside the other file (``GoldenRows/compareRowForRow``) or, when
    /// they differ, as a golden read by rows: the figures are still those of ImageMagick's
    /// pixels, and a TIFF's Orientation is still applied (a square picture, so that only
    /// the turn tells the stored rows from the shown ones).
    @Test("TIFF files, as the picture or the golden: equal ones match, differing ones differ by ImageMagick's mean and max, Orientation applied")
    func tiffPairs() throws {
        let folder = try TemporaryDirectory("compare-tiff")
        let (png, changedPNG) = (folder.path("a.png"), folder.path("b.png"))
        try ExternalTool.run("convert", ["-size", "48x48", "-seed", "48", "plasma:fractal", "PNG24:" + png]).checked()
        try ExternalTool.run("convert", [png, "-fill", "rgb(250,10,10)", "-draw", "rectangle 5,5 20,15", "PNG24:" + changedPNG]).checked()
        let (tiff, changedTIFF, turnedTIFF) = (folder.path("a.tif"), folder.path("b.tif"), folder.path("turned.tif"))
        try ExternalTool.run("convert", [png, "-compress", "none", "-define", "tiff:rows-per-strip=7", tiff]).checked()
        try ExternalTool.run("convert", [changedPNG, "-compress", "lzw", changedTIFF]).checked()
        try ExternalTool.run("convert", [png, "-compress", "none", turnedTIFF]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", turnedTIFF]).checked()
        let (stored, changed) = (try ReferenceDecoder.imageMagickStored(png), try ReferenceDecoder.imageMagickStored(changedPNG))
        #expect(try ReferenceDecoder.imageMagickStored(tiff) == stored && (try ReferenceDecoder.imageMagickStored(changedTIFF)) == changed)
        let mean = changed.meanAbsoluteDifference(to: stored)
        let maximum = zip(changed.pixels, stored.pixels).map { abs(Int($0) - Int($1)) }.max()!
        #expect(mean > 0.5 && maximum > 100, "the change is too small to tell: \(mean), \(maximum)")

        for (file, golden) in [(tiff, tiff), (tiff, png), (png, tiff), (changedTIFF, changedPNG)] {
            let json = try Self.json(try Self.compare([file, golden, "--json"]))
            #expect(json["verdict"] as? String == "match" && json["identical"] as? Bool == true, "\(file) \(golden): \(json)")
        }
        for (file, golden) in [(changedTIFF, tiff), (tiff, changedTIFF), (changedTIFF, png), (png, changedTIFF)] {
            let run = try Self.compare([file, golden, "--json"])
            #expect(run.status == 1, "\(file) \(golden): \(run.stderr)")
            let json = try Self.json(run)
            #expect(json["verdict"] as? String == "pixels", "\(file) \(golden): \(json)")
            #expect((json["meanAbsoluteDifference"] as? Double).map { abs($0 - mean) < 1e-9 } == true, "\(json), expected \(mean)")
            #expect(json["maximumAbsoluteDifference"] as? Int == maximum, "\(json), expected \(maximum)")
        }
        // Orientation 6: shown turned 90° clockwise, which is what it matches, not its stored rows.
        let turnedPNG = folder.path("turned.png")
        try ExternalTool.run("convert", [png, "-rotate", "90", "PNG24:" + turnedPNG]).checked()
        for (file, golden) in [(turnedTIFF, turnedPNG), (turnedPNG, turnedTIFF)] {
            let run = try Self.compare([file, golden])
            #expect(run.status == 0 && run.text.contains("matches the golden (48x48, mean difference 0, max 0"), "\(run.text) \(run.stderr)")
        }
        for (file, golden) in [(turnedTIFF, png), (png, turnedTIFF), (turnedTIFF, tiff)] {
            let json = try Self.json(try Self.compare([file, golden, "--json"]))
            #expect(json["verdict"] as? String == "orientation", "\(file) \(golden): \(json)")
        }
    }

    @Test("record mode: PHOTOCAP_RECORD_GOLDENS=1 writes the golden PNG, says so, exits 0; the next run compares")
    func record() throws {
        let folder = try TemporaryDirectory("compare-record")
        let golden = folder.path("goldens/landscape.png")
        let run = try Self.compare([Self.image("Landscape_8"), golden], environment: ["PHOTOCAP_RECORD_GOLDENS": "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text.contains("\(golden): recorded the golden"), "\(run.text)")
        // What was recorded is what ImageMagick shows for the file.
        let recorded = try ReferenceDecoder.imageMagickStored(golden)
        #expect(recorded.meanAbsoluteDifference(to: try ReferenceDecoder.imageMagickAutoOriented(Self.image("Landscape_8"))) <= 1)
        let json = try Self.json(try Self.compare([Self.image("Landscape_8"), golden, "--json"], environment: ["PHOTOCAP_RECORD_GOLDENS": "1"]))
        #expect(json["recorded"] as? Bool == true && json["verdict"] as? String == "recorded")
        #expect(try Self.compare([Self.image("Landscape_8"), golden]).status == 0)
        #expect(try Self.compare([Self.image("Landscape_1"), golden, "--tolerance", "1"]).status == 1)
        let jpegGolden = try Self.compare([Self.image("Landscape_8"), folder.path("g.jpg")],
                                          environment: ["PHOTOCAP_RECORD_GOLDENS": "1"])
        #expect(jpegGolden.status == 2 && jpegGolden.stderr.contains("goldens are recorded as PNG"), "\(jpegGolden.stderr)")
    }
}
