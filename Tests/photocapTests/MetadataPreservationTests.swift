import Foundation
import Imaging
import Testing
import TestSupport

/// `photocap orient` keeps what is the user's (issue 18, DESIGN §10): judged by exiftool over
/// real camera files with maker notes (TestImages/exiftool-maker-notes, exiftool's own test
/// images, Artistic/GPL-1+). `exiftool -a -G1 -j` of original and result must be equal except
/// for the tags a turn changes, and exiftool must find no warning the original did not have.
@Suite struct MetadataPreservationTests {
    static var folder: URL { TestPaths.testImages.appendingPathComponent("exiftool-maker-notes") }

    static let cameraFiles = ["Apple", "Canon", "Canon1DmkIII", "ExifTool", "Nikon", "NikonD70", "Olympus", "OlympusE1",
                              "Pentax", "Sony", "Panasonic", "FujiFilm"].map { "\($0).jpg" }

    /// Tags a turn must change: orientation, pixel dimensions, the thumbnail and where it is.
    static let changedByATurn: Set<String> = [
        "IFD0:Orientation", "IFD1:Orientation", "ExifIFD:ExifImageWidth", "ExifIFD:ExifImageHeight",
        "IFD1:ThumbnailOffset", "IFD1:ThumbnailLength", "IFD1:ThumbnailImage", "XMP-tiff:Orientation",
    ]
    /// Groups that describe the file or the new coding rather than the picture: file system
    /// facts, the coding of a re-encode (File:EncodingProcess), values exiftool derives. JFIF is
    /// compared where the original has it; otherwise it is the encoder's.
    static let codingGroups = ["SourceFile", "File:", "System:", "Composite:", "ExifTool:ExifToolVersion"]

    /// What re-encoding rightly drops from exiftool's kitchen-sink ExifTool.jpg: segments that
    /// describe the old coding or point into the old file (JFXX: an unturned second thumbnail;
    /// AVI1, SPIFF: coding; MPF: offsets of images in the old file).
    static let droppedByAReencode = ["JFXX:", "AVI1:", "SPIFF:", "MPF0:", "MPImage1:", "MPImage2:"]
    /// The same segments by kind (``JFIFOrientTests/kind(_:)``), for the segment count.
    static let segmentsDroppedByAReencode: Set<String> = ["APP0 JFXX", "APP0 AVI1", "APP8 SPIFF"]
    /// The AFCP trailer holds absolute offsets; it is carried after the new, shorter image data
    /// and exiftool reads it by adjusting them (a minor warning, its data intact).
    static let movedTrailerWarning = "[minor] Adjusted AFCP offsets by"

    static func metadata(_ path: String) throws -> [String: String] {
        let output = try ExternalTool.run("exiftool", ["-a", "-G1", "-j", "-b", "-ThumbnailImage", "-all", path]).checked()
        let array = try JSONSerialization.jsonObject(with: output.stdout) as? [[String: Any]]
        return (array?.first ?? [:]).mapValues { "\($0)" }
    }

    static func warnings(_ path: String) throws -> Set<String> {
        Set(try ExternalTool.run("exiftool", ["-a", "-s3", "-warning", "-error", path]).text.split(separator: "\n").map(String.init))
    }

    @Test(arguments: cameraFiles)
    func orientKeepsMakerNotesAndEveryOtherTag(_ name: String) throws {
        let temporary = try TemporaryDirectory("preservation")
        let input = try temporary.write([UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name))), named: name)
        // exiftool's own edit keeps maker notes where they are, so the turned input is still whole.
        if try ExternalTool.run("exiftool", ["-n", "-s3", "-IFD0:Orientation", input]).checked().text != "8\n" {
            try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=6", input]).checked()
        }
        let out = temporary.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", out.path, input])
        #expect(run.status == 0, "\(run.stderr)")
        let result = out.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: result) else { return }

        let before = try Self.metadata(input), after = try Self.metadata(result)
        let hadJFIF = before.keys.contains { $0.hasPrefix("JFIF:") }
        let keys = Set(before.keys).union(after.keys).filter { key in
            !Self.changedByATurn.contains(key) && !Self.codingGroups.contains(where: { key.hasPrefix($0) })
                && !Self.droppedByAReencode.contains(where: { key.hasPrefix($0) }) && (hadJFIF || !key.hasPrefix("JFIF:"))
        }
        let differences = keys.sorted().filter { before[$0] != after[$0] }
            .map { "\($0): \(before[$0] ?? "absent") -> \(after[$0] ?? "absent")" }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(after["IFD0:Orientation"] == "Horizontal (normal)")
        // No application segment lost: each kind as often as before (a JFIF the encoder adds may be new).
        func counts(_ path: String) throws -> [String: Int] {
            try JFIFOrientTests.applicationSegments(path).map(JFIFOrientTests.kind).reduce(into: [:]) { $0[$1, default: 0] += 1 }
        }
        let kindsBefore = try counts(input), kindsAfter = try counts(result)
        let lost = kindsBefore.filter { !Self.segmentsDroppedByAReencode.contains($0.key) && kindsAfter[$0.key, default: 0] < $0.value }
        #expect(lost.isEmpty, "lost: \(lost), after: \(kindsAfter)")
        let newWarnings = try Self.warnings(result).subtracting(try Self.warnings(input))
            .filter { !(name == "ExifTool.jpg" && $0.hasPrefix(Self.movedTrailerWarning)) }
        #expect(newWarnings.isEmpty, "\(newWarnings)")
    }
}

/// Ordinary files and arguments that were refused (issue 18).
@Suite struct OrdinaryInputTests {
    @Test func aPlaceholderThumbnailIsNoReasonToRefuse() throws {
        // Apple.jpg's IFD1 "thumbnail" is a 28-byte placeholder, not a JPEG.
        let file = MetadataPreservationTests.folder.appendingPathComponent("Apple.jpg").path
        let info = try ExternalTool.run(TestPaths.photocap, ["info", file])
        #expect(info.status == 0, "\(info.stderr)")
        let temporary = try TemporaryDirectory("placeholder-thumbnail")
        let input = try temporary.write([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), named: "Apple.jpg")
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=3", input]).checked()
        let placeholder = try ExternalTool.run("exiftool", ["-b", "-ThumbnailImage", input]).stdout
        for arguments in [["--in-place"], ["--lossless", "--in-place"]] {
            let run = try ExternalTool.run(TestPaths.photocap, ["orient"] + arguments + [input])
            // 8x8 at 4:2:0 has no partial blocks for a half turn: lossless is exact.
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        #expect(try ExternalTool.run("exiftool", ["-n", "-s3", "-IFD0:Orientation", input]).text == "1\n")
        // The placeholder is left as it was.
        #expect(try ExternalTool.run("exiftool", ["-b", "-ThumbnailImage", input]).stdout == placeholder)
    }

    @Test func orientOutputWithATrailingSlashMakesTheFolder() throws {
        let temporary = try TemporaryDirectory("orient-new-folder")
        let input = TestPaths.testImages.appendingPathComponent("third-party/pillow-hopper-orientation/hopper_orientation_3.jpg").path
        let folder = temporary.url.appendingPathComponent("new/deeper").path + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", folder, input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "hopper_orientation_3.jpg"))
        // Without the slash a missing folder is still an error, as in shoot.
        let missing = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", temporary.url.appendingPathComponent("absent").path, input])
        #expect(missing.status == 64)
    }
}

/// A JPEG cut short (issue 18): ImageMagick decodes what is there. photocap refuses it by
/// default, saying so and naming the way; `--accept-truncated` turns what its data holds.
@Suite struct TruncatedJPEGTests {
    @Test func aTruncatedJPEGIsRefusedUnlessAccepted() throws {
        let folder = try TemporaryDirectory("truncated-jpeg")
        let whole = folder.url.appendingPathComponent("whole.jpg").path
        try ExternalTool.run("convert", ["-size", "320x240", "gradient:red-blue", "-quality", "95", whole]).checked()
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-Orientation=6", whole]).checked()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        let input = try folder.write(Array(bytes.prefix(bytes.count * 6 / 10)), named: "cut.jpg")
        let out = folder.url.appendingPathComponent("out").path + "/"

        let refused = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", out, input])
        #expect(refused.status == 1)
        #expect(refused.stderr == "photocap: error: \(input): the JPEG file is truncated at byte \(bytes.count * 6 / 10) (its data goes on past the end); --accept-truncated turns what its data holds\n")
        #expect(!FileManager.default.fileExists(atPath: out + "cut.jpg"))

        let accepted = try ExternalTool.run(TestPaths.photocap, ["orient", "--accept-truncated", "--output", out, input])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.text == "\(input): orientation 6 -> 1 (240x320)\n")
        #expect(accepted.stderr.contains("warning: the file is cut short at byte \(bytes.count * 6 / 10)"), "\(accepted.stderr)")
        // What ImageMagick shows for the cut file (its decoder fills the rest the same way).
        let shown = try ReferenceDecoder.imageMagickAutoOriented(input)
        let result = try ReferenceDecoder.djpeg(out + "cut.jpg")
        #expect(result.size == shown.size)
        if result.size == shown.size { #expect(result.meanAbsoluteDifference(to: shown) <= OrientCommandTests.goldenTolerance) }
        #expect(try ExternalTool.exiftoolValidationProblems(out + "cut.jpg") == [])

        let lossless = try ExternalTool.run(TestPaths.photocap, ["orient", "--accept-truncated", "--lossless", "--output", out, input])
        #expect(lossless.status == 64 && lossless.stderr.contains("cannot be combined with --lossless"), "\(lossless.stderr)")
    }
}

/// A camera JPEG with a Multi-Picture Format index (CIPA DC-007) and a preview after its EOI:
/// a turn changes the main image's length, so the index must follow (it was copied stale by
/// --lossless and dropped by a re-encode). exiftool, which reads MPF, judges.
@Suite struct MultiPictureTests {
    /// main.jpg (64x48, Orientation 6) with an APP2 MPF index after its EXIF, and a 32x24
    /// preview JPEG appended after its EOI.
    static func makeMultiPicture(in folder: TemporaryDirectory) throws -> (path: String, preview: [UInt8]) {
        let main = folder.url.appendingPathComponent("main.jpg").path, preview = folder.url.appendingPathComponent("preview.jpg").path
        try ExternalTool.run("convert", ["-size", "64x48", "gradient:red-blue", "-quality", "90", main]).checked()
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-Orientation=6", main]).checked()
        try ExternalTool.run("convert", ["-size", "32x24", "gradient:green-yellow", "-quality", "90", preview]).checked()
        let mainBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: main)))
        let previewBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: preview)))
        // After SOI and the APP0/APP1 segments.
        var insertion = 2
        while mainBytes[insertion] == 0xFF, [0xE0, 0xE1].contains(mainBytes[insertion + 1]) {
            insertion += 2 + (Int(mainBytes[insertion + 2]) << 8 | Int(mainBytes[insertion + 3]))
        }
        func le(_ value: Int, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let segmentLength = 4 + 4 + 8 + 2 + 3 * 12 + 4 + 32  // marker+length, "MPF\0", TIFF header, IFD, entries
        let mainLength = mainBytes.count + segmentLength
        let header = insertion + 4 + 4
        var index: [UInt8] = Array("II".utf8) + [0x2A, 0] + le(8, 4) + le(3, 2)
        index += le(0xB000, 2) + le(7, 2) + le(4, 4) + Array("0100".utf8)
        index += le(0xB001, 2) + le(4, 2) + le(1, 4) + le(2, 4)
        index += le(0xB002, 2) + le(7, 2) + le(32, 4) + le(8 + 2 + 3 * 12 + 4, 4) + le(0, 4)
        index += le(0x2003_0000, 4) + le(mainLength, 4) + le(0, 4) + le(0, 4)
        index += le(0x0001_0001, 4) + le(previewBytes.count, 4) + le(mainLength - header, 4) + le(0, 4)
        let payload = Array("MPF".utf8) + [0] + index
        let segment: [UInt8] = [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        let file = Array(mainBytes[..<insertion]) + segment + Array(mainBytes[insertion...]) + previewBytes
        return (try folder.write(file, named: "camera.jpg"), previewBytes)
    }

    static func images(_ path: String) throws -> (second: Data, firstLength: String) {
        (try ExternalTool.run("exiftool", ["-b", "-MPImage2:PreviewImage", path]).checked().stdout,
         try ExternalTool.run("exiftool", ["-s3", "-MPImage1:MPImageLength", path]).checked().text)
    }

    @Test(arguments: [[], ["--lossless"]])
    func theMultiPictureIndexFollowsTheTurn(_ options: [String]) throws {
        let folder = try TemporaryDirectory("mpf")
        let (input, preview) = try Self.makeMultiPicture(in: folder)
        let original = try Self.images(input)
        #expect(original.second == Data(preview), "the crafted index is read by exiftool")
        let out = folder.url.appendingPathComponent("out").path + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", out] + options + [input])
        #expect(run.status == 0, "\(run.stderr)")
        let result = out + "camera.jpg"
        let turned = try Self.images(result)
        #expect(turned.second == Data(preview), "exiftool finds the preview where the index says")
        let resultBytes = try Data(contentsOf: URL(fileURLWithPath: result))
        #expect(turned.firstLength == "\(resultBytes.count - preview.count)\n")
        #expect(try MetadataPreservationTests.warnings(result).isSubset(of: MetadataPreservationTests.warnings(input)))
        #expect(try ReferenceDecoder.djpeg(result).size == PixelSize(width: 48, height: 64))
    }
}
