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
/// --lossless and dropped by a re-encode), and the preview turns with the picture (it was kept
/// unturned). exiftool, which reads MPF, judges; ImageMagick turns the reference.
@Suite struct MultiPictureTests {
    /// main.jpg (64x48, Orientation 6) with an APP2 MPF index after its EXIF, and a 32x24
    /// preview JPEG appended after its EOI.
    static func makeMultiPicture(in folder: TemporaryDirectory) throws -> (path: String, preview: [UInt8]) {
        let main = folder.url.appendingPathComponent("main.jpg").path, preview = folder.url.appendingPathComponent("preview.jpg").path
        try ExternalTool.run("convert", ["-size", "64x48", "gradient:red-blue", "-quality", "90", main]).checked()
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-Orientation=6", main]).checked()
        try ExternalTool.run("convert", ["-size", "32x24", "gradient:green-yellow", "-quality", "90", preview]).checked()
        let previewBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: preview)))
        let file = try multiPicture(main: [UInt8](try Data(contentsOf: URL(fileURLWithPath: main))), second: previewBytes)
        return (try folder.write(file, named: "camera.jpg"), previewBytes)
    }

    /// `mainBytes` with an APP2 MPF index (after its APP0/APP1 segments) listing it and
    /// `previewBytes`, appended after its EOI.
    static func multiPicture(main mainBytes: [UInt8], second previewBytes: [UInt8]) throws -> [UInt8] {
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
        return Array(mainBytes[..<insertion]) + segment + Array(mainBytes[insertion...]) + previewBytes
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
        let resultBytes = try Data(contentsOf: URL(fileURLWithPath: result))
        #expect(turned.firstLength == "\(resultBytes.count - turned.second.count)\n")
        #expect(try MetadataPreservationTests.warnings(result).isSubset(of: MetadataPreservationTests.warnings(input)))
        #expect(try ReferenceDecoder.djpeg(result).size == PixelSize(width: 48, height: 64))
        // The preview exiftool finds where the index says is the original preview turned a
        // quarter clockwise, as ImageMagick turns it (re-encoding tolerance).
        let second = try folder.write([UInt8](turned.second), named: "second.jpg")
        let untouched = try folder.write(preview, named: "original-preview.jpg")
        let reference = try PPM.parse(try ExternalTool.run("convert", [untouched, "-rotate", "90", "-depth", "8", "ppm:-"]).checked().stdout)
        let picture = try ReferenceDecoder.djpeg(second)
        #expect(picture.size == PixelSize(width: 24, height: 32))
        if picture.size == reference.size {
            #expect(picture.meanAbsoluteDifference(to: reference) <= 3, "the turned preview differs from ImageMagick's turn")
        }
    }

    /// A companion that cannot be decoded is never kept unturned: it is dropped with the index,
    /// named in a warning, and the picture is turned.
    @Test func aCompanionThatCannotBeTurnedIsDroppedWithTheIndex() throws {
        let folder = try TemporaryDirectory("mpf-broken")
        let main = folder.url.appendingPathComponent("main.jpg").path
        try ExternalTool.run("convert", ["-size", "64x48", "gradient:red-blue", "-quality", "90", main]).checked()
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-Orientation=6", main]).checked()
        let broken: [UInt8] = [0xFF, 0xD8] + (0..<200).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) } + [0xFF, 0xD9]
        let input = try folder.write(try Self.multiPicture(main: [UInt8](try Data(contentsOf: URL(fileURLWithPath: main))), second: broken),
                                     named: "broken.jpg")
        let out = folder.url.appendingPathComponent("out").path + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", out, input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("image 2 of the Multi-Picture index (204 bytes after the picture) cannot be turned"), "\(run.stderr)")
        let result = out + "broken.jpg"
        let groups = try ExternalTool.run("exiftool", ["-a", "-G1", "-s", "-MPF:all", result]).checked().text
        #expect(groups.isEmpty, "the index is gone: \(groups)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: result)))
        #expect(bytes.firstRange(of: broken) == nil, "the companion's bytes are gone")
        #expect(try ReferenceDecoder.djpeg(result).size == PixelSize(width: 48, height: 64))
    }

    /// An Ultra HDR JPEG, made here as the format describes it (no licensed sample exists): a
    /// 64x48 primary image with Orientation 6 whose XMP says `hdrgm:Version` and lists, in its
    /// GContainer directory, the gain map and its length; the gain map, a 32x24 grey JPEG with
    /// its own `hdrgm` XMP, is image 2 of the MPF index. Turned, the gain map has the picture's
    /// shape and ImageMagick's turn of it, keeps its XMP, and the directory gives its new length.
    @Test(arguments: [[], ["--lossless"]])
    func anUltraHDRGainMapTurnsWithThePicture(_ options: [String]) throws {
        let folder = try TemporaryDirectory("ultrahdr")
        let gainMap = folder.url.appendingPathComponent("gainmap.jpg").path, main = folder.url.appendingPathComponent("main.jpg").path
        let rdf = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
        let hdrgm = "xmlns:hdrgm=\"http://ns.adobe.com/hdr-gain-map/1.0/\" hdrgm:Version=\"1.0\""
        try ExternalTool.run("convert", ["-size", "32x24", "gradient:gray20-gray80", "-colorspace", "gray", "-quality", "90", gainMap]).checked()
        let gainMapXMP = try folder.write(Array((rdf + "<rdf:Description rdf:about=\"\" \(hdrgm) hdrgm:GainMapMax=\"2.0\" "
            + "hdrgm:HDRCapacityMax=\"2.0\"/></rdf:RDF></x:xmpmeta>").utf8), named: "gainmap.xmp")
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-xmp<=\(gainMapXMP)", gainMap]).checked()
        let gainMapBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gainMap)))
        let item = "<rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Semantic=\"%@\" Item:Mime=\"image/jpeg\"%@/></rdf:li>"
        let primaryXMP = try folder.write(Array((rdf + "<rdf:Description rdf:about=\"\" \(hdrgm) "
            + "xmlns:Container=\"http://ns.google.com/photos/1.0/container/\" xmlns:Item=\"http://ns.google.com/photos/1.0/container/item/\">"
            + "<Container:Directory><rdf:Seq>"
            + item.replacingOccurrences(of: "%@\"", with: "Primary\"").replacingOccurrences(of: "%@", with: "")
            + item.replacingOccurrences(of: "%@\"", with: "GainMap\"").replacingOccurrences(of: "%@", with: " Item:Length=\"\(gainMapBytes.count)\"")
            + "</rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>").utf8), named: "primary.xmp")
        try ExternalTool.run("convert", ["-size", "64x48", "gradient:red-blue", "-quality", "90", main]).checked()
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-Orientation=6", "-xmp<=\(primaryXMP)", main]).checked()
        let input = try folder.write(try Self.multiPicture(main: [UInt8](try Data(contentsOf: URL(fileURLWithPath: main))), second: gainMapBytes),
                                     named: "ultrahdr.jpg")
        func lengths(_ path: String) throws -> (directory: String, gainMap: Data) {
            (try ExternalTool.run("exiftool", ["-s3", "-sep", ",", "-XMP-Container:DirectoryItemLength", path]).checked().text,
             try ExternalTool.run("exiftool", ["-b", "-MPImage2:PreviewImage", path]).checked().stdout)
        }
        let before = try lengths(input)
        #expect(before.directory == "\(gainMapBytes.count)\n" && before.gainMap == Data(gainMapBytes), "the made file reads as made: \(before.directory)")

        let out = folder.url.appendingPathComponent("out").path + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", out] + options + [input])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let result = out + "ultrahdr.jpg"
        let after = try lengths(result)
        #expect(after.directory == "\(after.gainMap.count)\n", "the directory gives the gain map's length: \(after.directory) for \(after.gainMap.count) bytes")
        #expect(try MetadataPreservationTests.warnings(result).isSubset(of: MetadataPreservationTests.warnings(input)))
        let turnedGainMap = try folder.write([UInt8](after.gainMap), named: "turned-gainmap.jpg")
        // Grey pictures, read as RGB (PPM) by ImageMagick: djpeg writes grey ones as PGM.
        func rgb(_ path: String, _ operations: [String] = []) throws -> RGBImage {
            try PPM.parse(try ExternalTool.run("convert", [path] + operations + ["-type", "TrueColor", "-depth", "8", "ppm:-"]).checked().stdout)
        }
        let reference = try rgb(gainMap, ["-rotate", "90"])
        let picture = try rgb(turnedGainMap)
        #expect(picture.size == PixelSize(width: 24, height: 32) && reference.size == picture.size)
        if picture.size == reference.size {
            #expect(picture.meanAbsoluteDifference(to: reference) <= 3, "the turned gain map differs from ImageMagick's turn")
        }
        let gainMapMetadata = try ExternalTool.run("exiftool", ["-s3", "-XMP-hdrgm:GainMapMax", "-XMP-hdrgm:Version", turnedGainMap]).checked().text
        #expect(gainMapMetadata == "2.0\n1.0\n", "the gain map's XMP: \(gainMapMetadata)")
        #expect(try ExternalTool.run("exiftool", ["-s3", "-XMP-hdrgm:Version", result]).checked().text == "1.0\n")
        #expect(try ReferenceDecoder.djpeg(result).size == PixelSize(width: 48, height: 64))
    }
}

/// An Android portrait JPEG carries its depth map (`GDepth:Data`, a PNG) and its unblurred
/// original (`GImage:Data`) in its XMP — in extended XMP when large. orient cannot turn them
/// yet; turning the picture alone left them turned the other way, silently. Now the file is
/// refused, named, and left byte for byte as it was.
@Suite struct DepthPortraitTests {
    @Test(arguments: [("small, in the standard XMP", "64x48"), ("large, in extended XMP", "400x300")])
    func aPortraitWithADepthMapIsLeftAsItIs(_ case: (name: String, depthSize: String)) throws {
        let folder = try TemporaryDirectory("portrait")
        let photo = folder.url.appendingPathComponent("portrait.jpg").path
        let depth = folder.url.appendingPathComponent("depth.png").path, original = folder.url.appendingPathComponent("original.jpg").path
        try ExternalTool.run("convert", ["-size", "64x48", "gradient:red-blue", "-quality", "90", photo]).checked()
        try ExternalTool.run("convert", ["-size", `case`.depthSize, "xc:", "+noise", "Random", "-colorspace", "gray", depth]).checked()
        try ExternalTool.run("convert", ["-size", "64x48", "gradient:green-yellow", original]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", "-XMP-GDepth:Format=RangeInverse",
                                          "-XMP-GDepth:Near=0.5", "-XMP-GDepth:Far=5", "-XMP-GDepth:Mime=image/png",
                                          "-XMP-GDepth:DepthImage<=\(depth)", "-XMP-GImage:ImageMimeType=image/jpeg",
                                          "-XMP-GImage:ImageData<=\(original)", photo]).checked()
        let extended = try ExternalTool.run("exiftool", ["-s3", "-XMP:HasExtendedXMP", photo]).checked().text
        #expect(extended.isEmpty == (`case`.depthSize == "64x48"), "\(`case`.name): HasExtendedXMP \(extended)")
        let before = try Data(contentsOf: URL(fileURLWithPath: photo))
        for options in [["--in-place"], ["--in-place", "--lossless"]] {
            let run = try ExternalTool.run(TestPaths.photocap, ["orient"] + options + [photo])
            #expect(run.status == 1, "\(`case`.name) \(options): \(run.stderr)")
            #expect(run.stderr.contains("a depth map (GDepth) and the original picture (GImage)")
                    && run.stderr.contains("left as it is"), "\(run.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == before, "\(`case`.name) \(options): the file changed")
        }
    }
}
