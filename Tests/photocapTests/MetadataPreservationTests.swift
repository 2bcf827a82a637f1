import Foundation
import Imaging
import Testing
import TestSupport

/// `photocap orient` keeps what is the user's: judged by exiftool over
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

/// Ordinary files and arguments that were refused.
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
        let folder = temporary.path("new/deeper") + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", folder, input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "hopper_orientation_3.jpg"))
        // Without the slash a missing folder is still an error, as in shoot.
        let missing = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", temporary.path("absent"), input])
        #expect(missing.status == 64)
    }
}

/// A JPEG cut short: ImageMagick decodes what is there. photocap refuses it by
/// default, saying so and naming the way; `--accept-truncated` turns what its data holds.
@Suite struct TruncatedJPEGTests {
    @Test func aTruncatedJPEGIsRefusedUnlessAccepted() throws {
        let folder = try TemporaryDirectory("truncated-jpeg")
        let whole = folder.path("whole.jpg")
        try ExternalTool.run("convert", ["-size", "320x240", "gradient:red-blue", "-quality", "95", whole]).checked()
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-Orientation=6", whole]).checked()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        let input = try folder.write(Array(bytes.prefix(bytes.count * 6 / 10)), named: "cut.jpg")
        let out = folder.path("out") + "/"

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
        let main = folder.path("main.jpg"), preview = folder.path("preview.jpg")
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
        let out = folder.path("out") + "/"
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
        let main = folder.path("main.jpg")
        try ExternalTool.run("convert", ["-size", "64x48", "gradient:red-blue", "-quality", "90", main]).checked()
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-Orientation=6", main]).checked()
        let broken: [UInt8] = [0xFF, 0xD8] + (0..<200).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) } + [0xFF, 0xD9]
        let input = try folder.write(try Self.multiPicture(main: [UInt8](try Data(contentsOf: URL(fileURLWithPath: main))), second: broken),
                                     named: "broken.jpg")
        let out = folder.path("out") + "/"
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
        let gainMap = folder.path("gainmap.jpg"), main = folder.path("main.jpg")
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

        let out = folder.path("out") + "/"
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
/// original (`GImage:Data`, a JPEG) in its XMP — in extended XMP when large — aligned with the
/// picture. Built here with exiftool as such a camera writes it, set to Orientation 6 and
/// turned, both companions turn with the picture.
@Suite struct DepthPortraitTests {
    /// A portrait of `size` whose depth map (`depth` bits, noise: every sample tells) and
    /// original have its size, written by exiftool.
    static func portrait(in folder: TemporaryDirectory, size: String, depthBits: Int,
                         depthData: [UInt8]? = nil) throws -> (photo: String, depth: String, original: String) {
        let photo = folder.path("portrait.jpg")
        let depth = folder.path("depth.png"), original = folder.path("original.jpg")
        try ExternalTool.run("convert", ["-size", size, "gradient:red-blue", "-quality", "90", photo]).checked()
        try ExternalTool.run("convert", ["-size", size, "xc:", "+noise", "Random", "-colorspace", "gray", "-depth", "\(depthBits)", depth]).checked()
        if let depthData { try Data(depthData).write(to: URL(fileURLWithPath: depth)) }
        try ExternalTool.run("convert", ["-size", size, "gradient:green-yellow", "-attenuate", "0.3", "+noise", "Gaussian", "-quality", "92",
                                         original]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", "-XMP-GDepth:Format=RangeInverse",
                                          "-XMP-GDepth:Near=0.5", "-XMP-GDepth:Far=5", "-XMP-GDepth:Mime=image/png",
                                          "-XMP-GDepth:DepthImage<=\(depth)", "-XMP-GImage:ImageMimeType=image/jpeg",
                                          "-XMP-GImage:ImageData<=\(original)", photo]).checked()
        return (photo, depth, original)
    }

    /// 16-bit grey samples as ImageMagick reads `path`, after `operations`.
    static func greySamples(_ path: String, _ operations: [String] = []) throws -> (size: PixelSize, samples: [UInt16]) {
        try PGM.parse16(try ExternalTool.run("convert", [path] + operations + ["-depth", "16", "pgm:-"]).checked().stdout)
    }

    /// The packet of each extended XMP GUID, put together from its APP1 segments (XMP
    /// specification part 3), read here byte by byte as a reader of the format would.
    static func extendedPackets(_ jpeg: [UInt8]) -> [String: [UInt8]] {
        let signature = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]
        var chunks: [String: [(offset: Int, data: ArraySlice<UInt8>)]] = [:]
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
            let end = position + 2 + (Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3]))
            let payload = jpeg[(position + 4)..<end]
            if jpeg[position + 1] == 0xE1, payload.starts(with: signature) {
                let start = payload.startIndex + signature.count
                let guid = String(decoding: jpeg[start..<(start + 32)], as: UTF8.self)
                let offset = jpeg[(start + 36)..<(start + 40)].reduce(0) { $0 << 8 | Int($1) }
                chunks[guid, default: []].append((offset, jpeg[(start + 40)..<end]))
            }
            position = end
        }
        return chunks.mapValues { $0.sorted { $0.offset < $1.offset }.flatMap(\.data) }
    }

    @Test(arguments: [("small, in the standard XMP", "64x48", 8, [String]()), ("small, in the standard XMP", "64x48", 8, ["--lossless"]),
                      ("large, in extended XMP", "320x240", 16, []), ("large, in extended XMP", "320x240", 16, ["--lossless"])])
    func theDepthMapAndTheOriginalTurnWithThePicture(_ case: (name: String, size: String, depthBits: Int, options: [String])) throws {
        let folder = try TemporaryDirectory("portrait")
        let (photo, depth, original) = try Self.portrait(in: folder, size: `case`.size, depthBits: `case`.depthBits)
        let extended = try ExternalTool.run("exiftool", ["-s3", "-XMP:HasExtendedXMP", photo]).checked().text
        #expect(extended.isEmpty == (`case`.size == "64x48"), "\(`case`.name): HasExtendedXMP \(extended)")
        let warningsBefore = try MetadataPreservationTests.warnings(photo)

        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--in-place"] + `case`.options + [photo])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(`case`.name) \(`case`.options): \(run.stderr)")
        let picture = try ReferenceDecoder.djpeg(photo)
        let turnedDepth = try folder.write([UInt8](try ExternalTool.run("exiftool", ["-b", "-XMP-GDepth:DepthImage", photo]).checked().stdout),
                                           named: "turned-depth.png")
        let turnedOriginal = try folder.write([UInt8](try ExternalTool.run("exiftool", ["-b", "-XMP-GImage:ImageData", photo]).checked().stdout),
                                              named: "turned-original.jpg")

        // The depth map: the picture's shape, ImageMagick's turn sample for sample, its kind kept.
        let depthSamples = try Self.greySamples(turnedDepth), reference = try Self.greySamples(depth, ["-rotate", "90"])
        #expect(depthSamples.size == picture.size && reference.size == picture.size, "\(depthSamples.size) for a \(picture.size) picture")
        #expect(depthSamples.samples == reference.samples, "the turned depth map differs from ImageMagick's turn")
        let kind = try ExternalTool.run("exiftool", ["-s3", "-n", "-PNG:BitDepth", "-PNG:ColorType", turnedDepth]).checked().text
        #expect(kind == "\(`case`.depthBits)\n0\n", "bit depth and colour type (0: grey): \(kind)")
        let description = try ExternalTool.run("exiftool", ["-s3", "-XMP-GDepth:Near", "-XMP-GDepth:Far", "-XMP-GDepth:Format",
                                                            "-XMP-GDepth:Mime", "-XMP-GImage:ImageMimeType", photo]).checked().text
        #expect(description == "0.5\n5\nRangeInverse\nimage/png\nimage/jpeg\n", "\(description)")

        // The original: the picture's shape, ImageMagick's turn within re-encoding tolerance.
        let originalPixels = try ReferenceDecoder.djpeg(turnedOriginal)
        let originalReference = try PPM.parse(try ExternalTool.run("convert", [original, "-rotate", "90", "-depth", "8", "ppm:-"]).checked().stdout)
        #expect(originalPixels.size == picture.size && originalReference.size == picture.size)
        if originalPixels.size == originalReference.size {
            #expect(originalPixels.meanAbsoluteDifference(to: originalReference) <= 3, "the turned original differs from ImageMagick's turn")
        }

        // exiftool finds nothing wrong; the extended packet's GUID is its MD5 and the one the
        // standard packet names.
        let validation = try ExternalTool.run("exiftool", ["-validate", "-warning", "-a", photo]).checked().text
        #expect(!validation.contains("XMP") && validation.contains("OK"), "\(validation)")
        #expect(try MetadataPreservationTests.warnings(photo).isSubset(of: warningsBefore))
        let packets = Self.extendedPackets([UInt8](try Data(contentsOf: URL(fileURLWithPath: photo))))
        let named = try ExternalTool.run("exiftool", ["-s3", "-XMP:HasExtendedXMP", photo]).checked().text
        #expect(packets.count == (`case`.size == "64x48" ? 0 : 1), "extended packets: \(packets.keys.sorted())")
        for (guid, packet) in packets {
            let digest = try ExternalTool.run("md5sum", [try folder.write(packet, named: "extended.xmp")]).checked().text.prefix(32)
            #expect(guid == digest.uppercased() && named == guid + "\n", "GUID \(guid), MD5 \(digest), named \(named)")
        }
    }

    /// A depth map that cannot be decoded is not kept unturned: it is dropped, with the rest
    /// of its description, named in a warning; the original still turns.
    @Test(arguments: [[String](), ["--lossless"]])
    func aDepthMapThatCannotBeTurnedIsDropped(_ options: [String]) throws {
        let folder = try TemporaryDirectory("portrait-broken")
        let broken = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        let (photo, _, _) = try Self.portrait(in: folder, size: "320x240", depthBits: 8, depthData: broken)
        #expect(try ExternalTool.run("exiftool", ["-s3", "-XMP:HasExtendedXMP", photo]).checked().text.count == 33)
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--in-place"] + options + [photo])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: its depth map (GDepth:Data) cannot be turned")
                && run.stderr.contains("it is dropped, with the rest of its description"), "\(run.stderr)")
        let depthTags = try ExternalTool.run("exiftool", ["-s", "-XMP-GDepth:all", photo]).checked().text
        #expect(depthTags.isEmpty, "GDepth is gone: \(depthTags)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        #expect(bytes.firstRange(of: Array(Data(broken).base64EncodedString().utf8.prefix(4096))) == nil, "the depth map's data is gone")
        let turnedOriginal = try folder.write([UInt8](try ExternalTool.run("exiftool", ["-b", "-XMP-GImage:ImageData", photo]).checked().stdout),
                                              named: "turned-original.jpg")
        #expect(try ReferenceDecoder.djpeg(turnedOriginal).size == PixelSize(width: 240, height: 320))
        let validation = try ExternalTool.run("exiftool", ["-validate", "-warning", "-a", photo]).checked().text
        #expect(!validation.contains("XMP"), "\(validation)")
    }
}
