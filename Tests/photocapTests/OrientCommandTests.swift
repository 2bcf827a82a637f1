import Codecs
import Foundation
import Imaging
import PhotoCapture
import Testing
import TestSupport

/// `photocap orient` judged against third-party reference images (TestImages/third-party) and
/// third-party tools (djpeg, ImageMagick, exiftool).
///
/// Tolerances (mean absolute difference on 0-255 channels): the shared README measured the
/// correct transform at ≤ 4.85 and every wrong one at ≥ 24 against each set's upright
/// reference, so `goldenTolerance` = 8 separates them with room for our re-encode at q92.
@Suite(.serialized) struct OrientCommandTests {
    static let goldenTolerance = 8.0
    /// Pillow's G4 TIFFs are not pixel-identical to each other (ImageMagick's own -auto-orient of
    /// orientation_2..8 differs from orientation_1 in 87-109 of 51920 pixels, MAD ≤ 0.66):
    /// against the reference ≤ 1; against ImageMagick's -auto-orient of the same input, exact.
    static let tiffTolerance = 1.0
    /// Lossless rotation against the decoded-then-turned input: only IDCT/upsampling rounding.
    static let losslessTolerance = 2.0
    /// A thumbnail (q90 of a 120x160 reduction) against ImageMagick's reduction of the main image.
    static let thumbnailTolerance = 10.0
    /// rasteiner's quadrants are flat colours: each channel of each quadrant centre within ±8.
    static let quadrantTolerance = 8

    static var thirdParty: URL { TestPaths.testImages.appendingPathComponent("third-party") }

    static func photocap(_ arguments: [String]) throws -> ExternalTool.Output {
        try ExternalTool.run(TestPaths.photocap, arguments)
    }

    // MARK: Cases

    enum Comparison: Sendable { case maskedCentre, quadrants, plain, exact }

    struct Case: Sendable, CustomTestStringConvertible {
        let file: String  // relative to third-party/
        let orientation: Int  // what the file name says (0 → read as 1)
        let reference: String
        let comparison: Comparison
        var testDescription: String { file }
    }

    /// One test set's files, each named with the orientation it says, against `reference`.
    static func series(_ orientations: ClosedRange<Int>, file: (Int) -> String, reference: String,
                       comparison: Comparison) -> [Case] {
        orientations.map { Case(file: file($0), orientation: $0, reference: reference, comparison: comparison) }
    }

    static let goldenCases: [Case] = {
        let recurser = ["Landscape", "Portrait"].flatMap { kind in
            series(0...8, file: { "recurser-exif-orientation-examples/\(kind)_\($0).jpg" },
                   reference: "recurser-exif-orientation-examples/\(kind)_1.jpg", comparison: .maskedCentre)
        }
        let rasteiner = series(1...8, file: { "rasteiner-exif-orientation-test-images/test_\($0).jpg" },
                               reference: "rasteiner-exif-orientation-test-images/test_1.jpg", comparison: .quadrants)
        let hopper = series(2...8, file: { "pillow-hopper-orientation/hopper_orientation_\($0).jpg" },
                            reference: "pillow-hopper-orientation/hopper.jpg", comparison: .plain)
        let tiff = series(1...8, file: { "pillow-tiff-orientation/g4_orientation_\($0).tif" },
                          reference: "pillow-tiff-orientation/g4_orientation_1.tif", comparison: .exact)
        return recurser + rasteiner + hopper + tiff
    }()

    // MARK: Helpers

    /// Stored pixels, orientation ignored: djpeg for JPEG, ImageMagick for TIFF.
    static func stored(_ path: String) throws -> RGBImage {
        path.hasSuffix(".tif") ? try ReferenceDecoder.imageMagickStored(path) : try ReferenceDecoder.djpeg(path)
    }

    /// Mean absolute difference outside a centred rectangle. recurser's images carry a big
    /// digit (the orientation number) in the middle, about 80x140 px at 1800x1200 around
    /// (900, 580); the masked rectangle is 400x400 centred on the image, which covers it in
    /// both Landscape and Portrait.
    static func maskedDifference(_ a: RGBImage, _ b: RGBImage, mask: PixelSize = PixelSize(width: 400, height: 400)) -> Double {
        precondition(a.size == b.size)
        let x0 = (a.size.width - mask.width) / 2, y0 = (a.size.height - mask.height) / 2
        var total = 0, count = 0
        for y in 0..<a.size.height {
            for x in 0..<a.size.width {
                if x >= x0, x < x0 + mask.width, y >= y0, y < y0 + mask.height { continue }
                let i = (y * a.size.width + x) * 3
                for c in 0..<3 { total += abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c])) }
                count += 3
            }
        }
        return Double(total) / Double(max(count, 1))
    }

    /// exiftool's warning/error lines (not the "Validate" summary, whose count follows them).
    static func validationWarnings(_ path: String) throws -> Set<String> {
        Set(try ExternalTool.exiftoolValidationProblems(path).filter { !$0.hasPrefix("Validate") })
    }

    static func orientationTags(_ path: String) throws -> [String] {
        try ExternalTool.run("exiftool", ["-n", "-s3", "-IFD0:Orientation", "-IFD1:Orientation", path]).checked()
            .text.split(separator: "\n").map(String.init)
    }

    // MARK: Tests

    @Test func copiedThirdPartyFilesMatchSHA256SUMS() throws {
        let sums = try String(contentsOf: Self.thirdParty.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        var checked = 0
        for line in sums.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let path = Self.thirdParty.appendingPathComponent(parts[1]).path
            // The HEIF and AVIF folders are deliberately not copied (200 MP file; AVIF unused).
            guard !parts[1].hasPrefix("pillow-heif/"), !parts[1].hasPrefix("pillow-avif") else { continue }
            let actual = try ExternalTool.run("sha256sum", [path]).checked().text.prefix(64)
            #expect(actual == parts[0], "\(parts[1])")
            checked += 1
        }
        // recurser 18 JPEG + LICENSE + README, rasteiner 8 + LICENSE + readme, hopper 9, TIFF 8.
        #expect(checked == 43)
        for licence in ["Pillow-LICENSE", "rasteiner-exif-orientation-test-images-LICENSE", "recurser-exif-orientation-examples-LICENSE"] {
            #expect(FileManager.default.fileExists(atPath: Self.thirdParty.appendingPathComponent("LICENSES/\(licence)").path))
        }
    }

    @Test(arguments: goldenCases)
    func orientedFileMatchesTheUprightReference(_ testCase: Case) throws {
        let input = Self.thirdParty.appendingPathComponent(testCase.file).path
        let expected = max(testCase.orientation, 1)  // 0 is invalid: read as 1

        // `photocap info --json` on the input reports the orientation the name says.
        let info = try Self.photocap(["info", "--json", input])
        #expect(info.status == 0, "\(info.stderr)")
        let json = try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any]
        #expect(json?["orientation"] as? Int == expected)

        let folder = try TemporaryDirectory("orient")
        let run = try Self.photocap(["orient", "--output", folder.url.path, input])
        #expect(run.status == 0, "\(run.stderr)")
        let output = folder.url.appendingPathComponent(URL(fileURLWithPath: input).lastPathComponent).path
        if expected == 1 {
            // Already upright: copied byte for byte, and said so.
            #expect(run.text == "\(input): already upright\n")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: input)))
        } else {
            #expect(run.text.hasPrefix("\(input): orientation \(expected) -> 1 ("), "\(run.text)")
            #expect(try Self.orientationTags(output).allSatisfy { $0 == "1" })
            #expect(try !Self.orientationTags(output).isEmpty)
        }

        // Pixels as stored in the result against the upright reference.
        let result = try Self.stored(output)
        let reference = try Self.stored(Self.thirdParty.appendingPathComponent(testCase.reference).path)
        #expect(result.size == reference.size)
        guard result.size == reference.size else { return }
        switch testCase.comparison {
        case .maskedCentre:
            let difference = Self.maskedDifference(result, reference)
            #expect(difference <= Self.goldenTolerance, "masked MAD \(difference)")
        case .quadrants:
            let difference = result.meanAbsoluteDifference(to: reference)
            #expect(difference <= Self.goldenTolerance, "MAD \(difference)")
            let w = result.size.width, h = result.size.height
            for (x, y) in [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)] {
                let a = result.pixel(x: x, y: y), b = reference.pixel(x: x, y: y)
                for (p, q) in [(a.r, b.r), (a.g, b.g), (a.b, b.b)] {
                    #expect(abs(Int(p) - Int(q)) <= Self.quadrantTolerance, "quadrant at \(x),\(y): \(a) vs \(b)")
                }
            }
        case .plain:
            let difference = result.meanAbsoluteDifference(to: reference)
            #expect(difference <= Self.goldenTolerance, "MAD \(difference)")
        case .exact:
            let difference = result.meanAbsoluteDifference(to: reference)
            #expect(difference <= Self.tiffTolerance, "MAD \(difference)")
            #expect(result == (try ReferenceDecoder.imageMagickAutoOriented(input)))
        }

        // A viewer applying the written orientation changes nothing: Orientation is 1.
        let autoOriented = try ReferenceDecoder.imageMagickAutoOriented(output)
        let storedByMagick = try ReferenceDecoder.imageMagickStored(output)
        #expect(autoOriented == storedByMagick)

        // exiftool finds nothing the input did not already have.
        let before = try Self.validationWarnings(input), after = try Self.validationWarnings(output)
        #expect(after.isSubset(of: before), "new warnings: \(after.subtracting(before))")
    }

    /// Every hopper file (128x128 4:2:0: MCU-aligned), recurser Landscape_8 (stored 1200x1800:
    /// orientation 8 needs only the width, 1200 = 75 x 16) and Landscape_4 (stored 1800x1200:
    /// orientation 4 needs only the height) turn losslessly.
    @Test(arguments: (2...8).map { "pillow-hopper-orientation/hopper_orientation_\($0).jpg" }
          + ["recurser-exif-orientation-examples/Landscape_8.jpg", "recurser-exif-orientation-examples/Landscape_4.jpg"])
    func losslessOnAnAlignedFileMatchesTheDecodedTransform(_ file: String) throws {
        let input = Self.thirdParty.appendingPathComponent(file).path
        let orientation = Orientation(exifValue: try Self.orientationTags(input)[0] == "" ? 1 : Int(Self.orientationTags(input)[0])!)
        let folder = try TemporaryDirectory("orient-lossless")
        let run = try Self.photocap(["orient", "--lossless", "--output", folder.url.path, input])
        #expect(run.status == 0, "\(run.stderr)")
        let output = folder.url.appendingPathComponent(URL(fileURLWithPath: input).lastPathComponent).path
        let result = try ReferenceDecoder.djpeg(output)
        let expected = try ReferenceDecoder.djpeg(input).transformed(by: orientation)
        #expect(result.size == expected.size)
        if result.size == expected.size {
            let difference = result.meanAbsoluteDifference(to: expected)
            #expect(difference <= Self.losslessTolerance, "MAD \(difference)")
        }
        #expect(try Self.orientationTags(output).allSatisfy { $0 == "1" })
        #expect(try ReferenceDecoder.imageMagickAutoOriented(output) == ReferenceDecoder.imageMagickStored(output))
        #expect(try Self.validationWarnings(output).isSubset(of: Self.validationWarnings(input)))
    }

    /// recurser Landscape_6 is stored 1200x1800 4:2:0: orientation 6 needs the height (1800 =
    /// 112 x 16 + 8) aligned; Landscape_2 is stored 1800x1200 and orientation 2 needs the width:
    /// both refused, nothing written.
    @Test(arguments: [("Landscape_6", 6, "1200x1800"), ("Landscape_2", 2, "1800x1200")])
    func losslessOnAnUnalignedFileIsRefused(_ name: String, _ orientation: Int, _ size: String) throws {
        let input = Self.thirdParty.appendingPathComponent("recurser-exif-orientation-examples/\(name).jpg").path
        let folder = try TemporaryDirectory("orient-refused")
        let run = try Self.photocap(["orient", "--lossless", "--output", folder.url.path, input])
        #expect(run.status == 1)
        #expect(run.text.isEmpty)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(run.stderr.contains("photocap: error: \(input)"))
        #expect(run.stderr.contains("orientation \(orientation)") && run.stderr.contains(size) && run.stderr.contains("16x16"), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("; run without --lossless\n"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// --lossless on a HEIC is refused in the CLI's words (the library's error names no option).
    @Test func losslessOnAHEICIsRefusedNamingTheOption() throws {
        let input = Self.thirdParty.appendingPathComponent("pillow-heif/pillow_heif_arrow.heic").path
        let folder = try TemporaryDirectory("orient-lossless-heic")
        let run = try Self.photocap(["orient", "--lossless", "--output", folder.url.path, input])
        #expect(run.status == 1)
        #expect(run.stderr == "photocap: error: \(input): --lossless applies to JPEG files only; this is HEIC\n", "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// A minimal ICC profile: a 128-byte header ('acsp', display class, RGB → XYZ) and one
    /// copyright tag; enough for exiftool to read, and unlike any profile we would write.
    static func minimalICCProfile() -> [UInt8] {
        var profile = [UInt8](repeating: 0, count: 160)
        func put(_ text: String, at offset: Int) { profile.replaceSubrange(offset..<offset + text.utf8.count, with: Array(text.utf8)) }
        profile[3] = 160
        profile[8] = 2; profile[9] = 0x10  // version 2.1
        put("mntr", at: 12); put("RGB ", at: 16); put("XYZ ", at: 20); put("acsp", at: 36)
        profile[131] = 1  // one tag: 'cprt' at 144, 16 bytes
        put("cprt", at: 132); profile[139] = 144; profile[143] = 16
        put("text", at: 144); put("photocap", at: 152)
        return profile
    }

    /// Metadata that describes the picture survives both JPEG routes: the ICC profile, the
    /// comment and XMP, whose tiff:Orientation is set to 1 like the EXIF one.
    @Test(arguments: [false, true])
    func iccXMPAndCommentSurvive(lossless: Bool) throws {
        let folder = try TemporaryDirectory("orient-metadata")
        let input = folder.path("tagged.jpg")
        let icc = folder.url.appendingPathComponent("display.icc")
        try Data(Self.minimalICCProfile()).write(to: icc)
        try FileManager.default.copyItem(atPath: Self.thirdParty.appendingPathComponent(
            "pillow-hopper-orientation/hopper_orientation_6.jpg").path, toPath: input)
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-XMP-tiff:Orientation=6", "-XMP-dc:Title=kept title",
                                          "-Comment=kept comment", "-ICC_Profile<=\(icc.path)", input]).checked()
        let out = try TemporaryDirectory("orient-metadata-out")
        let run = try Self.photocap(["orient", "--output", out.url.path, input] + (lossless ? ["--lossless"] : []))
        #expect(run.status == 0, "\(run.stderr)")
        let output = out.url.appendingPathComponent("tagged.jpg").path
        let tags = try ExternalTool.run("exiftool", ["-j", "-n", "-G1", "-XMP-tiff:Orientation", "-XMP-dc:Title", "-Comment",
                                                     "-ICC-header:ProfileClass", "-ICC_Profile:ProfileCopyright", "-IFD0:Orientation", output]).checked()
        let values = try #require((try JSONSerialization.jsonObject(with: tags.stdout) as? [[String: Any]])?.first)
            .mapValues { "\($0)" }
        #expect(values["XMP-tiff:Orientation"] == "1", "\(values)")
        #expect(values["IFD0:Orientation"] == "1", "\(values)")
        #expect(values["XMP-dc:Title"] == "kept title", "\(values)")
        #expect(values["File:Comment"] == "kept comment", "\(values)")
        #expect(values["ICC_Profile:ProfileCopyright"] == "photocap" && values["ICC-header:ProfileClass"] == "mntr", "\(values)")
        #expect(try Self.validationWarnings(output).isSubset(of: Self.validationWarnings(input)))
    }

    /// A photo with an IFD1 thumbnail and Orientation 8: the thumbnail is turned like the image.
    @Test func thumbnailIsTurnedLikeTheMainImage() throws {
        let folder = try TemporaryDirectory("orient-thumbnail")
        let input = folder.path("in/photo.jpg")
        try FileManager.default.createDirectory(atPath: folder.path("in"), withIntermediateDirectories: true)
        let shoot = try Self.photocap(["shoot", "--device", "synthetic", "--size", "640x480", "--no-compensation",
                                       "--sensor-rotation", "90", "--thumbnail", "160x120", "--output", input])
        #expect(shoot.status == 0, "\(shoot.stderr)")
        #expect(try Self.orientationTags(input) == ["8", "8"])

        let run = try Self.photocap(["orient", "--output", folder.url.path, input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text == "\(input): orientation 8 -> 1 (480x640)\n")
        let output = folder.path("photo.jpg")
        #expect(try Self.orientationTags(output) == ["1", "1"])
        let dimensions = try ExternalTool.run("exiftool", ["-n", "-s3", "-ExifImageWidth", "-ExifImageHeight", output]).text
        #expect(dimensions == "480\n640\n")

        let thumbnail = try ExternalTool.run("exiftool", ["-b", "-ThumbnailImage", output]).checked().stdout
        #expect(!thumbnail.isEmpty)
        let thumbnailPath = try folder.write([UInt8](thumbnail), named: "thumbnail.jpg")
        let decodedThumbnail = try ReferenceDecoder.djpeg(thumbnailPath)
        #expect(decodedThumbnail.size == PixelSize(width: 120, height: 160))
        let reduced = try PPM.parse(try ExternalTool.run("convert", [output, "-resize", "120x160!", "-depth", "8", "ppm:-"]).checked().stdout)
        if decodedThumbnail.size == reduced.size {
            let difference = decodedThumbnail.meanAbsoluteDifference(to: reduced)
            #expect(difference <= Self.thumbnailTolerance, "thumbnail MAD \(difference)")
        }
        // And the main image is what a viewer showed for the input.
        let difference = try ReferenceDecoder.djpeg(output).meanAbsoluteDifference(to: ReferenceDecoder.imageMagickAutoOriented(input))
        #expect(difference <= Self.goldenTolerance, "MAD \(difference)")
        #expect(try Self.validationWarnings(output).isSubset(of: Self.validationWarnings(input)))
    }

    /// HEIC: irot from the shoot (Orientation 8 without compensation) is what HEIF readers apply,
    /// so orient leaves the file as it is; with --pixels it becomes pixels, and the result
    /// decodes the same with or without transformations.
    @Test func heicIsTurnedUpright() throws {
        let folder = try TemporaryDirectory("orient-heic")
        let input = folder.path("photo.heic")
        let shoot = try Self.photocap(["shoot", "--device", "synthetic", "--format", "heic", "--heic-speed", "ultrafast",
                                       "--size", "320x240", "--no-compensation", "--sensor-rotation", "90",
                                       "--thumbnail", "160x120", "--output", input])
        #expect(shoot.status == 0, "\(shoot.stderr)")
        let inputBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        #expect(try HEICFileInfo(data: inputBytes).orientation == .left)
        let shown = try HEICDecoder.decodeRGB(inputBytes, applyingTransformations: true)

        let untouched = try Self.photocap(["orient", "--in-place", input])
        #expect(untouched.text == "\(input): already upright\n", "\(untouched.stderr)")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: input))) == inputBytes)

        let run = try Self.photocap(["orient", "--pixels", "--quality", "92", "--in-place", input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text == "\(input): orientation 8 -> 1 (240x320)\n")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        let info = try ImageFileInfo(data: bytes)
        #expect(info.orientation == .up)
        #expect(info.exifOrientation == .up)
        #expect(info.thumbnailSize == PixelSize(width: 120, height: 160))
        let stored = try HEICDecoder.decodeRGB(bytes, applyingTransformations: false)
        #expect(stored.size == shown.size)
        if stored.size == shown.size {
            // Re-encoding HEIC at q92 on the synthetic scene: a few levels; a wrong turn is > 40.
            let difference = RGBImage(size: stored.size, pixels: stored.rgb)
                .meanAbsoluteDifference(to: RGBImage(size: shown.size, pixels: shown.rgb))
            #expect(difference <= 4, "MAD \(difference)")
        }
        #expect(try ExternalTool.exiftoolValidationProblems(input) == [])
    }

    /// HEIC whose Exif item carries an IFD1 thumbnail (as cameras and converters write it) next to
    /// irot: the EXIF thumbnail is turned by its orientation like the image, and says 1 after.
    /// The reference is the synthetic scene rendered upright at the thumbnail's size, not our output.
    @Test func heicEXIFThumbnailIsTurnedLikeTheImage() throws {
        let orientation = Orientation.left  // 8
        let upright = PixelSize(width: 240, height: 320), uprightThumbnail = PixelSize(width: 120, height: 160)
        let stored = SyntheticScene.image(size: upright).transformed(by: orientation.inverse)
        let storedThumbnail = SyntheticScene.image(size: uprightThumbnail).transformed(by: orientation.inverse)
        var exif = EXIFMetadata(orientation: orientation)
        exif.pixelSize = stored.size
        let block = try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: JPEGEncoder().encode(storedThumbnail.planarImage(), quality: 95))
        let heic = try HEICEncoder(preset: .ultrafast).encode(stored.planarImage(), quality: 90, orientation: orientation,
                                                              thumbnail: nil, exif: block)
        let folder = try TemporaryDirectory("orient-heic-exif-thumbnail")
        let input = try folder.write(heic, named: "photo.heic")

        let run = try Self.photocap(["orient", "--pixels", "--in-place", input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.orientationTags(input) == ["1", "1"])
        let thumbnail = try ExternalTool.run("exiftool", ["-b", "-ThumbnailImage", input]).checked().stdout
        let thumbnailPath = try folder.write([UInt8](thumbnail), named: "thumbnail.jpg")
        let decoded = try ReferenceDecoder.djpeg(thumbnailPath)
        #expect(decoded.size == uprightThumbnail)
        if decoded.size == uprightThumbnail {
            let difference = decoded.meanAbsoluteDifference(to: SyntheticScene.image(size: uprightThumbnail))
            #expect(difference <= Self.thumbnailTolerance, "thumbnail MAD \(difference)")
        }
        #expect(try ExternalTool.exiftoolValidationProblems(input) == [])
    }

    /// Odd sizes keep every pixel: 101x75 with orientation 6 becomes 75x101, equal to what
    /// ImageMagick shows for the input (within the golden tolerance).
    @Test func oddSizesKeepEveryPixel() throws {
        let folder = try TemporaryDirectory("orient-odd")
        let input = folder.path("odd.jpg")
        try ExternalTool.run("convert", ["-size", "101x75", "gradient:red-blue", "-quality", "95", input]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", input]).checked()
        let shown = try ReferenceDecoder.imageMagickAutoOriented(input)
        let out = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let run = try Self.photocap(["orient", "--output", out.path, input])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try ReferenceDecoder.djpeg(out.appendingPathComponent("odd.jpg").path)
        #expect(result.size == PixelSize(width: 75, height: 101))
        if result.size == shown.size {
            #expect(result.meanAbsoluteDifference(to: shown) <= Self.goldenTolerance)
        }
    }

    /// Every output is the same bytes on every run: a re-encoded picture with odd sides (libvips'
    /// rotation_6.jpg is 308x231) once took the sample past its last column from unwritten memory.
    @Test func oddSizedReencodeIsTheSameBytesEveryRun() throws {
        let folder = try TemporaryDirectory("orient-odd-repeat")
        let input = folder.path("odd.jpg")
        try ExternalTool.run("convert", ["-size", "308x231", "-seed", "48", "plasma:fractal", "-quality", "95", input]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", input]).checked()
        var digests: Set<String> = []
        for run in 0..<20 {
            let out = folder.url.appendingPathComponent("out\(run)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let orient = try Self.photocap(["orient", "--output", out.path, input])
            #expect(orient.status == 0, "\(orient.stderr)")
            digests.insert(String(try ExternalTool.run("sha256sum", [out.appendingPathComponent("odd.jpg").path]).checked().text.prefix(64)))
        }
        #expect(digests.count == 1, "\(digests.count) different files from 20 runs")
    }

    /// A re-encoded turn keeps the file's chroma sampling: a 4:4:4 or 4:2:2 file is not
    /// made 4:2:0, a grey one stays grey, and each shows what ImageMagick shows for the input.
    @Test(arguments: [("1x1", "1x1,1x1,1x1"), ("2x1", "2x1,1x1,1x1"), ("gray", "1x1")])
    func reencodedTurnKeepsTheSampling(sampling: String, factors: String) throws {
        let folder = try TemporaryDirectory("orient-sampling")
        let input = folder.path("sampled.jpg")
        let options = sampling == "gray" ? ["-colorspace", "Gray"] : ["-sampling-factor", sampling]
        try ExternalTool.run("convert", ["-size", "101x75", "-seed", "48", "plasma:fractal"] + options + ["-quality", "95", input]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", input]).checked()
        #expect(try ExternalTool.run("identify", ["-format", "%[jpeg:sampling-factor]", input]).checked().text == factors)
        // As ImageMagick shows it, grey as RGB too (-type TrueColor: djpeg writes grey as PGM).
        func shown(_ file: String) throws -> RGBImage {
            try PPM.parse(try ExternalTool.run("convert", [file, "-auto-orient", "-type", "TrueColor", "-depth", "8", "ppm:-"]).checked().stdout)
        }
        let out = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let run = try Self.photocap(["orient", "--output", out.path, input])
        #expect(run.status == 0, "\(run.stderr)")
        let output = out.appendingPathComponent("sampled.jpg").path
        #expect(try ExternalTool.run("identify", ["-format", "%[jpeg:sampling-factor]", output]).checked().text == factors)
        let (result, expected) = (try shown(output), try shown(input))
        #expect(result.size == PixelSize(width: 75, height: 101))
        if result.size == expected.size {
            #expect(result.meanAbsoluteDifference(to: expected) <= Self.goldenTolerance)
        }
        #expect(try ExternalTool.exiftoolValidationProblems(output) == [])
    }

    @Test func inPlaceReplacesTheFile() throws {
        let folder = try TemporaryDirectory("orient-in-place")
        let source = Self.thirdParty.appendingPathComponent("rasteiner-exif-orientation-test-images/test_7.jpg").path
        let input = try folder.write([UInt8](try Data(contentsOf: URL(fileURLWithPath: source))), named: "test_7.jpg")
        let run = try Self.photocap(["orient", "--in-place", input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.orientationTags(input) == ["1"])
        let reference = try ReferenceDecoder.djpeg(Self.thirdParty.appendingPathComponent("rasteiner-exif-orientation-test-images/test_1.jpg").path)
        #expect(try ReferenceDecoder.djpeg(input).meanAbsoluteDifference(to: reference) <= Self.goldenTolerance)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["test_7.jpg"])  // no temporary left
    }

    @Test(arguments: ["photo.dng", "photo.CR2", "photo.nef", "sniffed.tif"])
    func rawFilesAreRefused(_ name: String) throws {
        let folder = try TemporaryDirectory("orient-raw")
        let tiff = [UInt8](try Data(contentsOf: Self.thirdParty.appendingPathComponent("pillow-tiff-orientation/g4_orientation_6.tif")))
        let input = try folder.write(tiff, named: name)
        if name == "sniffed.tif" {
            // A TIFF with a DNGVersion tag is a DNG whatever its name.
            try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-DNGVersion=1.4.0.0", input]).checked()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let out = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for arguments in [["--output", out.path], ["--in-place"]] {
            let run = try Self.photocap(["orient"] + arguments + [input])
            #expect(run.status == 1)
            #expect(run.stderr == "photocap: error: \(input): RAW files are never re-oriented: their Orientation tag is the correction\n")
            #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
        }
    }

    @Test func truncatedJPEGIsRefusedAndNothingIsWritten() throws {
        let folder = try TemporaryDirectory("orient-truncated")
        let whole = [UInt8](try Data(contentsOf: Self.thirdParty.appendingPathComponent("recurser-exif-orientation-examples/Landscape_6.jpg")))
        let input = try folder.write(Array(whole.prefix(whole.count / 2)), named: "cut.jpg")
        let out = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for arguments in [["--output", out.path], ["--in-place"], ["--lossless", "--in-place"]] {
            let run = try Self.photocap(["orient"] + arguments + [input])
            #expect(run.status == 1)
            #expect(run.stderr.split(separator: "\n").count == 1)
            #expect(run.stderr.hasPrefix("photocap: error: \(input): ") && run.stderr.contains("truncated"), "\(run.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == Data(whole.prefix(whole.count / 2)))
            #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["cut.jpg", "out"])
        }
    }

    @Test func outputNeverOverwritesAndEachFailureIsReported() throws {
        let folder = try TemporaryDirectory("orient-overwrite")
        let good = Self.thirdParty.appendingPathComponent("pillow-hopper-orientation/hopper_orientation_3.jpg").path
        let first = try Self.photocap(["orient", "--output", folder.url.path, good])
        #expect(first.status == 0, "\(first.stderr)")
        let output = folder.url.appendingPathComponent("hopper_orientation_3.jpg")
        let written = try Data(contentsOf: output)

        // Again, with a second good file and an unknown one: each failure on its own line, exit 1.
        let other = Self.thirdParty.appendingPathComponent("pillow-hopper-orientation/hopper_orientation_5.jpg").path
        let unknown = try folder.write(Array("not an image".utf8), named: "notes.txt")
        let again = try Self.photocap(["orient", "--output", folder.url.path, good, other, unknown])
        #expect(again.status == 1)
        #expect(again.text == "\(other): orientation 5 -> 1 (128x128)\n")
        // The files are turned in parallel: the error lines come in the order they finish, then
        // the batch's summary.
        let lines = again.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(again.stderr)")
        #expect(lines.contains { $0.hasPrefix("photocap: error: \(good): ") && $0.contains("exists") }, "\(again.stderr)")
        #expect(lines.contains { $0.hasPrefix("photocap: error: \(unknown): unsupported image format") }, "\(again.stderr)")
        #expect(lines.last == "photocap: orient: 1 turned, 0 already upright, 2 refused")
        #expect(try Data(contentsOf: output) == written)
    }

    @Test(arguments: [[String](), ["--in-place", "--output", "/tmp"]])
    func exactlyOneDestinationIsRequired(_ arguments: [String]) throws {
        let input = Self.thirdParty.appendingPathComponent("pillow-hopper-orientation/hopper_orientation_3.jpg").path
        let run = try Self.photocap(["orient"] + arguments + [input])
        #expect(run.status != 0)
        #expect(run.stderr.contains("exactly one of --output DIR and --in-place"))
    }
}
