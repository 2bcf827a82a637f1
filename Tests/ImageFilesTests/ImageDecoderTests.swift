import Foundation
import Codecs
import ImageFiles
import Imaging
import Testing
import TestSupport

/// ``ImageDecoder`` on the repository's test images against ImageMagick's decodes (oriented with
/// `-auto-orient`, or as stored), and its errors on unsupported, broken and oversized files.
@Suite struct ImageDecoderTests {
    static func thirdParty(_ name: String) -> String { TestPaths.testImages.appendingPathComponent("third-party/\(name)").path }

    /// Whether `decoded` is within `mean` and `maximum` difference per sample of ImageMagick's
    /// `reference`. JPEG, PNG and TIFF decode identically (the same libraries do it in both);
    /// ImageMagick turns libheif's Y'CbCr into RGB its own way (arrow.heic: mean 0.57, max 2).
    static func expectClose(_ decoded: RGBImage, _ reference: RGBImage, mean: Double, maximum: Int, _ name: String) {
        #expect(decoded.size == reference.size, "\(name)")
        guard decoded.size == reference.size else { return }
        let largest = zip(decoded.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(decoded.meanAbsoluteDifference(to: reference) <= mean && largest <= maximum,
                "\(name): mean \(decoded.meanAbsoluteDifference(to: reference)), max \(largest)")
    }

    @Test("JPEG: oriented as ImageMagick's -auto-orient shows it, or as stored", arguments: [1, 3, 6, 8])
    func jpeg(orientation: Int) throws {
        let file = Self.thirdParty("recurser-exif-orientation-examples/Landscape_\(orientation).jpg")
        let oriented = try ImageDecoder().decode(fileAt: file)
        #expect(oriented.format == .jpeg && oriented.isOriented)
        #expect(oriented.fileOrientation.rawValue == UInt32(orientation))
        #expect(oriented.size == PixelSize(width: 1800, height: 1200))
        Self.expectClose(oriented.image, try ReferenceDecoder.imageMagickAutoOriented(file), mean: 0, maximum: 0, file)
        let stored = try ImageDecoder(appliesOrientation: false).decode(fileAt: URL(fileURLWithPath: file))
        #expect(!stored.isOriented && stored.fileOrientation == oriented.fileOrientation)
        Self.expectClose(stored.image, try ReferenceDecoder.imageMagickStored(file), mean: 0, maximum: 0, file)
    }

    @Test("PNG and TIFF: the same pixels as ImageMagick's; TIFF's Orientation applied")
    func pngAndTIFF() throws {
        let png = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let portrait = try ImageDecoder().decode(Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(portrait.format == .png && portrait.fileOrientation == .up)
        Self.expectClose(portrait.image, try ReferenceDecoder.imageMagickStored(png), mean: 0, maximum: 0, png)
        for value in [1, 6, 7] {
            let tiff = Self.thirdParty("pillow-tiff-orientation/g4_orientation_\(value).tif")
            let decoded = try ImageDecoder().decode(fileAt: tiff)
            #expect(decoded.format == .tiff && decoded.fileOrientation.rawValue == UInt32(value))
            Self.expectClose(decoded.image, try ReferenceDecoder.imageMagickAutoOriented(tiff), mean: 0, maximum: 0, tiff)
            Self.expectClose(try ImageDecoder(appliesOrientation: false).decode(fileAt: tiff).image,
                             try ReferenceDecoder.imageMagickStored(tiff), mean: 0, maximum: 0, tiff)
        }
    }

    @Test("HEIC: irot/imir applied as ImageMagick (libheif) shows it; as stored, turned back the other way")
    func heic() throws {
        // iPhone photo stored landscape with irot 270° (turn 90° clockwise to show).
        let file = Self.thirdParty("pillow-heif/pillow_heif_arrow.heic")
        let oriented = try ImageDecoder().decode(fileAt: file)
        #expect(oriented.format == .heif && oriented.fileOrientation == .right)
        let shown = try PPM.parse(try ExternalTool.run("convert", [file, "-depth", "8", "ppm:-"]).checked().stdout)
        Self.expectClose(oriented.image, shown, mean: 1, maximum: 2, file)
        let stored = try ImageDecoder(appliesOrientation: false).decode(fileAt: file)
        let turnedBack = try PPM.parse(try ExternalTool.run("convert", [file, "-rotate", "-90", "-depth", "8", "ppm:-"]).checked().stdout)
        Self.expectClose(stored.image, turnedBack, mean: 1, maximum: 2, file)
    }

    @Test("unsupported, broken and missing files: a typed error naming the file and the cause")
    func errors() throws {
        let folder = try TemporaryDirectory("image-decoder")
        let text = try folder.write(Array("not a picture at all".utf8), named: "notes.txt")
        let unsupported = try #require(throws: ImageDecodingError.self) { try ImageDecoder().decode(fileAt: text) }
        guard case .unsupportedFormat = unsupported.code else { Issue.record("\(unsupported)"); return }
        #expect(unsupported.name == text && "\(unsupported)".hasPrefix("\(text): cannot decode: unknown magic bytes"), "\(unsupported)")

        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.thirdParty("recurser-exif-orientation-examples/Landscape_1.jpg")))
        let cut = try #require(throws: ImageDecodingError.self) { try ImageDecoder().decode(jpeg.prefix(5000), name: "cut.jpg") }
        #expect(cut.code == .damaged(.truncated(format: "JPEG", bytes: 5000)))
        #expect("\(cut)" == "cut.jpg: damaged: the JPEG file is truncated at byte 5000 (its data goes on past the end)")

        let png = try Data(contentsOf: TestPaths.testImages.appendingPathComponent("faces/astronaut.png"))
        var broken = [UInt8](png)
        broken.replaceSubrange(100..<4000, with: [UInt8](repeating: 0x55, count: 3900))
        let damaged = try #require(throws: ImageDecodingError.self) { try ImageDecoder().decode(Data(broken)) }
        guard case .damaged(.corruptFile(format: "PNG", _)) = damaged.code else { Issue.record("\(damaged)"); return }

        let missing = folder.path("none.heic")
        let absent = try #require(throws: ImageDecodingError.self) { try ImageDecoder().decode(fileAt: missing) }
        guard case .unreadable(let reason) = absent.code else { Issue.record("\(absent)"); return }
        #expect(reason.path == missing)
    }

    @Test("the pixel limit is checked on the declared size, before anything is allocated")
    func pixelLimit() throws {
        // A PNG whose header declares 100000x100000 pixels (10 gigapixels, 30 GB as RGB) in a few bytes.
        var bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bomb += [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        let error = try #require(throws: ImageDecodingError.self) { try ImageDecoder().decode(Data(bomb), name: "bomb.png") }
        #expect(error.code == .tooManyPixels(size: PixelSize(width: 100_000, height: 100_000), limit: PixelBudget.maximumPixels))
        #expect("\(error)".hasPrefix("bomb.png: declares 100000x100000 pixels (10000.0 MP), more than the limit"), "\(error)")
        // A real JPEG over a lower limit of the decoder's own.
        let jpeg = Self.thirdParty("recurser-exif-orientation-examples/Landscape_1.jpg")
        let limited = try #require(throws: ImageDecodingError.self) { try ImageDecoder(maximumPixelCount: 1_000_000).decode(fileAt: jpeg) }
        #expect(limited.code == .tooManyPixels(size: PixelSize(width: 1800, height: 1200), limit: 1_000_000))
        #expect(try ImageDecoder(maximumPixelCount: 1800 * 1200).decode(fileAt: jpeg).size == PixelSize(width: 1800, height: 1200))
        // A TIFF, decoded from its descriptor: the decoder's own limit is checked there too.
        let folder = try TemporaryDirectory("image-decoder-limit")
        let tiff = folder.path("small.tif")
        try ExternalTool.run("convert", ["-size", "64x48", "xc:red", "-orient", "RightTop", tiff]).checked()
        let limitedTIFF = try #require(throws: ImageDecodingError.self) { try ImageDecoder(maximumPixelCount: 64 * 48 - 1).decode(fileAt: tiff) }
        #expect(limitedTIFF.code == .tooManyPixels(size: PixelSize(width: 64, height: 48), limit: 64 * 48 - 1))
        #expect(try ImageDecoder(maximumPixelCount: 64 * 48).decode(fileAt: tiff).size == PixelSize(width: 48, height: 64))
    }

    @Test("DNG is refused as RAW data, with the reason")
    func dng() throws {
        let folder = try TemporaryDirectory("image-decoder-dng")
        let dng = folder.path("photo.dng")
        // A DNG of the synthetic camera, made by the CLI.
        try ExternalTool.run(TestPaths.photocap, ["shoot", "--device", "synthetic", "--size", "64x48", "--format", "dng", "--output", dng]).checked()
        let error = try #require(throws: ImageDecodingError.self) { try ImageDecoder().decode(fileAt: dng) }
        guard case .unsupportedFormat(let reason) = error.code else { Issue.record("\(error)"); return }
        #expect(reason.contains("DNG is RAW"))
    }
}
