import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// `photocap orient` of HEIC files: HEIF readers apply `irot`/`imir`, so a HEIC keeps
/// its coded image and only its EXIF is made to agree; `--pixels` re-encodes, carrying the
/// colour profile, XMP and the EXIF with its maker notes. The file is an iPhone 8 Plus HEIC
/// (irot 270° anticlockwise, EXIF 6, Display P3 ICC, Apple maker notes; BSD-3-Clause).
@Suite struct HEICOrientTests {
    static let arrow = TestPaths.testImages.appendingPathComponent("third-party/pillow-heif/pillow_heif_arrow.heic")

    /// What libheif's heif-convert shows (irot applied), decoded by ImageMagick.
    static func shown(_ path: String, in folder: TemporaryDirectory) throws -> RGBImage {
        let png = folder.url.appendingPathComponent(UUID().uuidString + ".png").path
        try ExternalTool.run("heif-convert", [path, png]).checked()
        return try ReferenceDecoder.imageMagickStored(png)
    }

    static func copyOfArrow(in folder: TemporaryDirectory, named name: String = "arrow.heic") throws -> String {
        try folder.write([UInt8](try Data(contentsOf: arrow)), named: name)
    }

    /// An Apple HEIC is shown upright by its irot and its EXIF agrees: nothing to do, the copy is
    /// byte for byte the original (it used to be re-encoded, losing profile and maker notes, 4x larger).
    @Test func anAppleHEICIsLeftAsCoded() throws {
        let folder = try TemporaryDirectory("heic-apple")
        let out = folder.path("out") + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", out, Self.arrow.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text == "\(Self.arrow.path): already upright\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "pillow_heif_arrow.heic")) == Data(contentsOf: Self.arrow))
    }

    /// EXIF saying 1 beside irot 270°: only the EXIF Orientation changes, to 6, in place. Same
    /// size, the changed bytes inside the Exif item, every other tag equal, and heif-convert shows
    /// the same upright picture as before.
    @Test func aDisagreeingEXIFIsMadeToAgreeInPlace() throws {
        let folder = try TemporaryDirectory("heic-agree")
        let input = try Self.copyOfArrow(in: folder)
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=1", input]).checked()
        let before = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        let shownBefore = try Self.shown(input, in: folder)
        let tagsBefore = try MetadataPreservationTests.metadata(input)

        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--in-place", input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text == "\(input): shown upright by irot/imir; EXIF Orientation 1 -> 6 to agree\n")
        let after = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        #expect(after.count == before.count)
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(changed.count == 1, "\(changed.count) bytes changed")  // the low byte of a SHORT: 1 -> 6
        let tagsAfter = try MetadataPreservationTests.metadata(input)
        let differences = Set(tagsBefore.keys).union(tagsAfter.keys)
            .filter { !$0.hasPrefix("File:") && !$0.hasPrefix("System:") && tagsBefore[$0] != tagsAfter[$0] }
        #expect(differences == ["IFD0:Orientation"], "\(differences)")
        #expect(tagsAfter["IFD0:Orientation"] == "Rotate 90 CW")
        #expect(try Self.shown(input, in: folder).pixels == shownBefore.pixels)
    }

    /// `--pixels`: no irot left, the stored pixels are what heif-convert showed, and the Display
    /// P3 profile, XMP (Orientation 1), Apple maker notes and every EXIF tag a turn does not change
    /// are kept; the size stays within 25% of the original's (it was 4.8x at quality 92).
    @Test func pixelsReencodesKeepingProfileXMPAndMakerNotes() throws {
        let folder = try TemporaryDirectory("heic-pixels")
        let input = try Self.copyOfArrow(in: folder)
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-XMP-tiff:Orientation=6", "-XMP-dc:Creator=Ada", input]).checked()
        let shownBefore = try Self.shown(input, in: folder)
        let out = folder.path("out") + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--pixels", "--output", out, input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text == "\(input): orientation 6 -> 1 (3024x4032)\n")
        let result = out + "arrow.heic"
        guard FileManager.default.fileExists(atPath: result) else { return }

        let tags = try MetadataPreservationTests.metadata(result), original = try MetadataPreservationTests.metadata(input)
        #expect(tags["QuickTime:Rotation"] == nil)
        #expect(tags["IFD0:Orientation"] == "Horizontal (normal)" && tags["XMP-tiff:Orientation"] == "Horizontal (normal)")
        #expect(tags["ICC_Profile:ProfileDescription"] == "Display P3")
        #expect(tags["XMP-dc:Creator"] == "Ada")
        let kept = original.keys.filter { $0.hasPrefix("Apple:") || $0.hasPrefix("ExifIFD:") || $0.hasPrefix("IFD0:") || $0.hasPrefix("GPS:") }
            .filter { !["IFD0:Orientation", "ExifIFD:ExifImageWidth", "ExifIFD:ExifImageHeight"].contains($0) }
        #expect(kept.count > 40)
        let differences = kept.sorted().filter { original[$0] != tags[$0] }.map { "\($0): \(original[$0]!) -> \(tags[$0] ?? "absent")" }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(tags["ExifIFD:ExifImageWidth"] == "3024" && tags["ExifIFD:ExifImageHeight"] == "4032")

        let stored = try Self.shown(result, in: folder)
        #expect(stored.size == shownBefore.size)
        if stored.size == shownBefore.size {
            // A re-encode at the original's rate: a few levels; a wrong turn is tens of levels.
            let difference = stored.meanAbsoluteDifference(to: shownBefore)
            #expect(difference <= 3, "MAD \(difference)")
        }
        let ratio = Double(try Data(contentsOf: URL(fileURLWithPath: result)).count) / Double(try Data(contentsOf: URL(fileURLWithPath: input)).count)
        #expect((0.75...1.25).contains(ratio), "size ratio \(ratio)")
        #expect(try ExternalTool.exiftoolValidationProblems(result) == [])
    }
}

/// `--from-exif`: a HEIC whose writer put the orientation only in its EXIF gets it in irot/imir,
/// which HEIF readers apply, without re-encoding.
@Suite struct HEICOrientationFromEXIFTests {
    /// The payload of the file's mdat box: the coded images.
    static func codedData(_ path: String) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var position = 0
        while position + 16 <= bytes.count {
            var size = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }, header = 8
            if size == 1 {  // a 64-bit size follows the type
                size = bytes[(position + 8)..<(position + 16)].reduce(0) { $0 << 8 | Int($1) }
                header = 16
            } else if size == 0 {  // to the end of the file
                size = bytes.count - position
            }
            guard size >= header, position + size <= bytes.count else { break }
            if String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self) == "mdat" {
                return Array(bytes[(position + header)..<(position + size)])
            }
            position += size
        }
        Issue.record("no mdat in \(path)")
        return []
    }

    /// The arrow (irot 270°, shown upright) with its EXIF set to `exif`: after --from-exif,
    /// heif-convert shows the stored picture turned by `exif`, which ImageMagick computes from
    /// the upright picture (`magick`: the stored picture is the upright one turned 90° back).
    /// Pixel-exact; the coded images byte-identical; the file within 1% of its size.
    @Test(arguments: [(3, ["-rotate", "90"]), (7, ["-rotate", "-90", "-transverse"]), (2, ["-rotate", "-90", "-flop"]), (6, [])])
    func theEXIFOrientationIsWrittenIntoTheProperties(exif: Int, magick: [String]) throws {
        let folder = try TemporaryDirectory("heic-from-exif")
        let input = try HEICOrientTests.copyOfArrow(in: folder)
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=\(exif)", input]).checked()
        let upright = folder.path("upright.png")
        try ExternalTool.run("heif-convert", [input, upright]).checked()
        let before = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        let coded = try Self.codedData(input)

        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--from-exif", "--in-place", input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text == (exif == 6 ? "\(input): already upright\n" : "\(input): irot/imir 6 -> \(exif), as its EXIF says\n"))
        let after = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        #expect(abs(after.count - before.count) < before.count / 100)
        #expect(try Self.codedData(input) == coded)
        let expected = try PPM.parse(try ExternalTool.run("convert", [upright] + magick + ["-depth", "8", "ppm:-"]).checked().stdout)
        #expect(try HEICOrientTests.shown(input, in: folder).pixels == expected.pixels)
        #expect(try ExternalTool.run("exiftool", ["-n", "-s3", "-IFD0:Orientation", input]).text == "\(exif)\n")
        #expect(try ExternalTool.exiftoolValidationProblems(input) == [])
        // A second run finds nothing to do: the properties now say what the EXIF says.
        let again = try ExternalTool.run(TestPaths.photocap, ["orient", "--from-exif", "--in-place", input])
        #expect(again.text == "\(input): already upright\n", "\(again.stderr)")
    }

    /// --from-exif --pixels of a HEIC with an alpha image (heif-enc of a PNG whose alpha is a
    /// left-to-right gradient, EXIF 6 added by exiftool): the pixels are turned and so is the
    /// alpha image, written back as the new picture's: ImageMagick's turn of the original's
    /// alpha (both decoded by heif-convert), within the re-encoding tolerance. From a 16-bit PNG
    /// heif-enc codes the alpha deeper than 8 bits: it is scaled to 8, as the picture is, not
    /// dropped.
    @Test(arguments: ["PNG32", "PNG64"])
    func aReencodeTurnsTheAlphaImage(pngKind: String) throws {
        let folder = try TemporaryDirectory("heic-alpha")
        let png = folder.path("alpha.png")
        try ExternalTool.run("convert", ["-size", "64x48", "gradient:red-blue", "(", "-size", "48x64", "gradient:white-black", "-rotate", "90", ")",
                                         "-alpha", "off", "-compose", "CopyOpacity", "-composite", pngKind + ":" + png]).checked()
        let input = folder.path("alpha.heic")
        try ExternalTool.run("heif-enc", ["-q", "90", png, "-o", input]).checked()
        #expect(try ExternalTool.run("heif-info", [input]).text.contains("alpha channel: yes"))
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=6", input]).checked()
        let out = folder.path("out") + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--from-exif", "--pixels", "--output", out, input])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text == "\(input): orientation 6 -> 1 (48x64)\n")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let info = try ExternalTool.run("heif-info", [out + "alpha.heic"]).text
        #expect(info.contains("image: 48x64") && info.contains("alpha channel: yes"), "\(info)")
        func alpha(_ heic: String, _ operations: [String] = []) throws -> RGBImage {
            let decoded = folder.url.appendingPathComponent(UUID().uuidString + ".png").path
            try ExternalTool.run("heif-convert", [heic, decoded]).checked()
            return try PPM.parse(try ExternalTool.run("convert", [decoded, "-alpha", "extract"] + operations
                + ["-type", "TrueColor", "-depth", "8", "ppm:-"]).checked().stdout)
        }
        let turned = try alpha(out + "alpha.heic"), reference = try alpha(input, ["-rotate", "90"])
        #expect(turned.size == PixelSize(width: 48, height: 64) && reference.size == turned.size)
        if turned.size == reference.size {
            #expect(turned.meanAbsoluteDifference(to: reference) <= 3, "the turned alpha differs from ImageMagick's turn")
        }
        #expect(try ExternalTool.exiftoolValidationProblems(out + "alpha.heic") == [])
    }
}

/// A phone HEIC with auxiliary images (pug: iPhone 13 Pro, a 768x576 depth image and an HDR gain
/// map, Display P3, XMP, Apple maker notes; BSD-3-Clause).
@Suite struct HEICAuxiliaryImageTests {
    static let pug = TestPaths.testImages.appendingPathComponent("third-party/pillow-heif/pillow_heif_pug.heic")

    /// heif-convert's pictures of a file: the image, its depth image and its gain map, as PPM.
    static func pictures(_ path: String, in folder: TemporaryDirectory) throws -> [String: Data] {
        let base = folder.url.appendingPathComponent(UUID().uuidString).path
        try ExternalTool.run("heif-convert", ["--with-aux", path, base + ".png"]).checked()
        var pictures: [String: Data] = [:]
        for (name, suffix) in [("image", ""), ("depth", "-depth"), ("gain map", "-urn:com:apple:photo:2020:aux:hdrgainmap")] {
            pictures[name] = try ExternalTool.run("convert", [base + suffix + ".png", "-depth", "16", "ppm:-"]).checked().stdout
        }
        return pictures
    }

    /// --from-exif turns the depth image and the gain map with the picture (their irot set too),
    /// pixel for pixel; the coded data and every tag but the rotation and the data's offset stay.
    @Test func theDepthImageAndGainMapTurnWithThePicture() throws {
        let folder = try TemporaryDirectory("heic-aux")
        let input = try folder.write([UInt8](try Data(contentsOf: Self.pug)), named: "pug.heic")
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=6", input]).checked()
        let before = try Self.pictures(input, in: folder)
        let tagsBefore = try MetadataPreservationTests.metadata(input)
        let coded = try HEICOrientationFromEXIFTests.codedData(input)

        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--from-exif", "--in-place", input])
        #expect(run.text == "\(input): irot/imir 1 -> 6, as its EXIF says\n", "\(run.stderr)")
        #expect(try HEICOrientationFromEXIFTests.codedData(input) == coded)
        let after = try Self.pictures(input, in: folder)
        for (name, picture) in before {
            let stored = folder.url.appendingPathComponent("before.ppm")
            try picture.write(to: stored)
            let turned = try ExternalTool.run("convert", [stored.path, "-rotate", "90", "-depth", "16", "ppm:-"]).checked().stdout
            #expect(after[name] == turned, "\(name) is not turned like the picture")
        }
        let tagsAfter = try MetadataPreservationTests.metadata(input)
        let differences = Set(tagsBefore.keys).union(tagsAfter.keys).sorted()
            .filter { !MetadataPreservationTests.codingGroups.contains(where: $0.hasPrefix) }
            .filter { !$0.hasPrefix("QuickTime:Rotation") && !$0.hasPrefix("QuickTime:MediaDataOffset") }
            .filter { tagsBefore[$0] != tagsAfter[$0] }
        #expect(differences.isEmpty, "\(differences)")
        #expect(try MetadataPreservationTests.warnings(input).isSubset(of: MetadataPreservationTests.warnings(Self.pug.path)))
    }

    /// The auxiliary images heif-convert exports of a file (`--with-aux`), by file name suffix
    /// (its auxC type: "depth", a gain map's URN), as 8-bit RGB turned by ImageMagick's `operations`.
    static func auxiliaryPictures(_ path: String, _ operations: [String] = [], in folder: TemporaryDirectory) throws -> [String: RGBImage] {
        let base = folder.url.appendingPathComponent(UUID().uuidString).path
        try ExternalTool.run("heif-convert", ["--with-aux", path, base + ".png"]).checked()
        var pictures: [String: RGBImage] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) where file.hasPrefix(URL(fileURLWithPath: base).lastPathComponent + "-") {
            let name = String(file.dropFirst(URL(fileURLWithPath: base).lastPathComponent.count + 1).dropLast(4))
            pictures[name] = try PPM.parse(try ExternalTool.run("convert", [folder.path(file)] + operations
                + ["-type", "TrueColor", "-depth", "8", "ppm:-"]).checked().stdout)
        }
        return pictures
    }

    /// --pixels turns the depth image and the gain map with the picture and writes them back
    /// (libheif 1.15 has no API for them; the boxes are edited): the same auxiliary images, each
    /// matching ImageMagick's turn of the original's within the HEVC re-encoding tolerance and
    /// far from the opposite turn; the depth representation (auxC), the gain map's and the depth
    /// image's XMP, P3 and the maker notes stay; heif-info reads it and exiftool finds nothing new.
    @Test func aReencodeTurnsTheDepthImageAndGainMap() throws {
        let folder = try TemporaryDirectory("heic-aux-pixels")
        let input = try folder.write([UInt8](try Data(contentsOf: Self.pug)), named: "pug.heic")
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=6", input]).checked()
        let out = folder.path("out") + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--from-exif", "--pixels", "--output", out, input])
        #expect(run.status == 0 && run.text == "\(input): orientation 6 -> 1 (3024x4032)\n", "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")

        let turned = try Self.auxiliaryPictures(out + "pug.heic", in: folder)
        let reference = try Self.auxiliaryPictures(input, ["-rotate", "90"], in: folder)
        let opposite = try Self.auxiliaryPictures(input, ["-rotate", "270"], in: folder)
        #expect(Set(turned.keys) == ["depth", "urn:com:apple:photo:2020:aux:hdrgainmap"] && Set(reference.keys) == Set(turned.keys), "\(turned.keys)")
        let sizes = ["depth": PixelSize(width: 576, height: 768), "urn:com:apple:photo:2020:aux:hdrgainmap": PixelSize(width: 1512, height: 2016)]
        for (name, picture) in turned {
            #expect(picture.size == sizes[name], "\(name) is \(picture.size)")
            guard let reference = reference[name], let opposite = opposite[name], reference.size == picture.size else { continue }
            let error = picture.meanAbsoluteDifference(to: reference), wrong = picture.meanAbsoluteDifference(to: opposite)
            #expect(error <= 1.5, "\(name) differs from ImageMagick's turn of the original's by \(error)")
            #expect(wrong > 4 * max(error, 1), "\(name): the opposite turn is as close (\(wrong))")
        }

        let info = try ExternalTool.run("heif-info", [out + "pug.heic"]).checked().text
        #expect(info.contains("image: 3024x4032") && info.contains("depth channel: yes\n (576x768)"), "\(info)")
        #expect(info.contains("d-min:  1.498047") && info.contains("d-max:  4.382812") && info.contains("representation: uniform disparity"), "\(info)")
        func validation(_ path: String) throws -> Set<String> {
            Set(try ExternalTool.run("exiftool", ["-validate", "-warning", "-a", path]).checked().text.split(separator: "\n").map(String.init))
        }
        let problems = try validation(out + "pug.heic")
        #expect(problems.isSubset(of: try validation(input)), "\(problems)")

        let tags = try MetadataPreservationTests.metadata(out + "pug.heic"), original = try MetadataPreservationTests.metadata(input)
        #expect(tags["ICC_Profile:ProfileDescription"] == "Display P3")
        // The image's own XMP, the gain map's and the depth image's, and the maker notes.
        let kept = original.keys.filter { ["Apple:", "XMP-photoshop:", "XMP-xmp:", "XMP-HDRGainMap:", "XMP-depthData:"].contains(where: $0.hasPrefix) }
        #expect(kept.contains("XMP-HDRGainMap:HDRGainMapVersion") && kept.contains("XMP-depthData:DepthDataVersion"))
        #expect(kept.filter { original[$0] != tags[$0] }.isEmpty, "\(kept.filter { original[$0] != tags[$0] })")
        #expect(tags["QuickTime:AuxiliaryImageType"] == original["QuickTime:AuxiliaryImageType"])
    }

    /// What truly cannot be turned is dropped and named, never kept misaligned: a depth image of
    /// 10-bit samples (our encoder codes 8), and one whose own irot is not its picture's. One
    /// with its picture's irot is turned as shown (heif-convert applies it), and one with none
    /// beside a turned picture (as Apple writes them) as ImageMagick turns it.
    @Test func aDepthImageThatCannotBeTurnedIsNamed() throws {
        let folder = try TemporaryDirectory("heic-aux-drop")
        let deep = try DepthHEIC.make(bits: 10, in: folder)
        #expect(try ExternalTool.run("heif-info", [deep]).text.contains("depth channel: yes"))
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=6", deep]).checked()
        let out = folder.path("out") + "/"
        var run = try ExternalTool.run(TestPaths.photocap, ["orient", "--from-exif", "--pixels", "--output", out, deep])
        #expect(run.status == 0 && run.text == "\(deep): orientation 6 -> 1 (48x64)\n", "\(run.stderr)")
        #expect(run.stderr == "photocap: \(deep): warning: its depth image was dropped: its samples are deeper than 8 bits\n")
        #expect(!(try ExternalTool.run("heif-info", [out + "depth10.heic"]).text.contains("depth channel: yes")))

        let depth = try DepthHEIC.make(bits: 8, in: folder)
        #expect(try ExternalTool.run("heif-info", [depth]).text.contains("depth channel: yes"))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: depth)))
        let items = try HEICFileInfo(data: bytes).imageItems
        #expect(items.count == 2)
        let listing = try ExternalTool.run("heif-info", [depth]).text
        let primary = try #require(listing.firstMatch(of: /\(id=(\d+)\), primary/).flatMap { Int($0.1) })
        // Shown turned 90° clockwise, the depth image too (what orient --from-exif writes).
        let aligned = try folder.write(try HEIFOrientationEditor.setting(.right, ofItems: items, in: bytes), named: "aligned.heic")
        run = try ExternalTool.run(TestPaths.photocap, ["orient", "--pixels", "--output", out, aligned])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let turned = try Self.auxiliaryPictures(out + "aligned.heic", in: folder)["depth"]
        let shown = try Self.auxiliaryPictures(aligned, in: folder)["depth"]
        #expect(turned?.size == PixelSize(width: 48, height: 64) && shown?.size == turned?.size)
        if let turned, let shown, turned.size == shown.size { #expect(turned.meanAbsoluteDifference(to: shown) <= 3) }

        // Only the picture turned, as Apple writes it: the depth image's samples are aligned with
        // the picture's stored ones and turn with them.
        let apple = try folder.write(try HEIFOrientationEditor.setting(.right, ofItems: [primary], in: bytes), named: "apple.heic")
        run = try ExternalTool.run(TestPaths.photocap, ["orient", "--pixels", "--output", out, apple])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let appleTurned = try Self.auxiliaryPictures(out + "apple.heic", in: folder)["depth"]
        let rotated = try Self.auxiliaryPictures(depth, ["-rotate", "90"], in: folder)["depth"]
        #expect(appleTurned?.size == PixelSize(width: 48, height: 64) && rotated?.size == appleTurned?.size)
        if let appleTurned, let rotated, appleTurned.size == rotated.size { #expect(appleTurned.meanAbsoluteDifference(to: rotated) <= 3) }

        // The depth image turned the other way from its picture: no alignment to keep.
        let crossed = try HEIFOrientationEditor.setting(.left, ofItems: items.subtracting([primary]),
                                                        in: try HEIFOrientationEditor.setting(.right, ofItems: [primary], in: bytes))
        let path = try folder.write(crossed, named: "crossed.heic")
        run = try ExternalTool.run(TestPaths.photocap, ["orient", "--pixels", "--output", out, path])
        #expect(run.status == 0 && run.stderr == "photocap: \(path): warning: its depth image was dropped: its own irot/imir/clap are not the picture's\n",
                "\(run.stderr)")
        #expect(!(try ExternalTool.run("heif-info", [out + "crossed.heic"]).text.contains("depth channel: yes")))
    }
}
