import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

@Suite("HEIC encoding with irot/imir, thumbnails and EXIF")
struct HEICTests {
    static let size = PixelSize(width: 256, height: 192)
    static let thumbnailSize = PixelSize(width: 64, height: 48)

    /// A HEIC of the quadrant picture with `orientation`, a thumbnail and matching EXIF.
    static func heic(_ orientation: Orientation) throws -> [UInt8] {
        var metadata = JPEGTests.fullMetadata(orientation: orientation, pixelSize: size)
        metadata.software = "photocap tests (HEIC)"
        let exif = try EXIFBuilder.tiffBlock(for: metadata, thumbnailJPEG: nil)
        return try HEICEncoder(preset: .ultrafast).encode(
            try TestImage.planarQuadrants(size), quality: 90, orientation: orientation,
            thumbnail: try TestImage.planarQuadrants(thumbnailSize), exif: exif)
    }

    @Test("a viewer (libheif) shows the picture transformed as the orientation says", arguments: Orientation.allCases)
    func orientationRoundTrip(orientation: Orientation) throws {
        let file = try Self.heic(orientation)

        // libheif applies irot/imir: the result must be our own reference transform.
        let shown = RGBImage(try HEICDecoder.decodeRGB(file, applyingTransformations: true))
        let expected = TestImage.quadrants(Self.size).transformed(by: orientation)
        #expect(shown.size == expected.size)
        // Tolerance 6/255: HEVC at q90 plus 4:2:0 chroma at the quadrant edges.
        let difference = shown.size == expected.size ? shown.meanAbsoluteDifference(to: expected) : .infinity
        #expect(difference <= 6, "mean abs diff \(difference)")
        let stored = RGBImage(try HEICDecoder.decodeRGB(file, applyingTransformations: false))
        #expect(stored.size == Self.size)
        let storedDifference = stored.size == Self.size ? stored.meanAbsoluteDifference(to: TestImage.quadrants(Self.size)) : .infinity
        #expect(storedDifference <= 6)

        let thumbnail = RGBImage(try #require(try HEICDecoder.decodeThumbnailRGB(file, applyingTransformations: true)))
        let expectedThumbnail = TestImage.quadrants(Self.thumbnailSize).transformed(by: orientation)
        #expect(thumbnail.size == expectedThumbnail.size)
        let thumbnailDifference = thumbnail.size == expectedThumbnail.size
            ? thumbnail.meanAbsoluteDifference(to: expectedThumbnail) : .infinity
        #expect(thumbnailDifference <= 8)

        let info = try HEICFileInfo(data: file)
        #expect(info.orientation == orientation)
        #expect(info.storedSize == Self.size)
        #expect(info.displayedSize == orientation.apply(to: Self.size))
        #expect(info.thumbnailSize == Self.thumbnailSize)
        let exif = try EXIFReader(data: try #require(info.exifBlock))
        #expect(exif.orientation == orientation)

        let general = try ImageFileInfo(data: file)
        #expect(general.format == .heic)
        #expect(general.orientation == orientation)
        #expect(general.exifOrientation == orientation)
        #expect(general.displayedSize == orientation.apply(to: Self.size))
        #expect(general.thumbnailSize == Self.thumbnailSize)
    }

    @Test("heif-info accepts the file and lists the thumbnail; exiftool reads the EXIF item", arguments: Orientation.allCases)
    func thirdPartyReaders(orientation: Orientation) throws {
        let file = try Self.heic(orientation)
        let folder = try TemporaryDirectory("codecs-tests")
        let path = try folder.write(file, named: "photo.heic")
        let info = try ExternalTool.run("heif-info", [path])
        #expect(info.status == 0, "heif-info: \(info.stderr)")
        // heif-info prints displayed sizes: irot must be applied after the stored ispe.
        #expect(info.text.contains("image: \(orientation.apply(to: Self.size)) (id=1), primary"), "heif-info said: \(info.text)")
        #expect(info.text.contains("  thumbnail: \(orientation.apply(to: Self.thumbnailSize))"), "heif-info said: \(info.text)")
        #expect(info.text.contains("Exif: "), "heif-info said: \(info.text)")

        let read = try ExternalTool.run("exiftool", ["-n", "-s3", "-EXIF:Orientation", "-ExifImageWidth", "-Software", path])
        #expect(read.status == 0)
        #expect(read.text.split(separator: "\n") == ["\(orientation.exifValue)", "256", "photocap tests (HEIC)"], "exiftool said: \(read.text)")

        let validate = try ExternalTool.run("exiftool", ["-validate", "-warning", "-a", path])
        let lines = validate.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines == ["Validate                        : OK"], "exiftool said: \(validate.text)")
    }

    @Test("the encoder rejects qualities outside 1...100")
    func rejectsBadQuality() throws {
        let image = try TestImage.planarQuadrants(PixelSize(width: 64, height: 64))
        #expect(throws: CodecError.self) {
            try HEICEncoder(preset: .ultrafast).encode(image, quality: 0, orientation: .up, thumbnail: nil, exif: nil)
        }
    }

    /// The EXIF orientation each Pillow AVIF is expected to carry, worked out by hand from its
    /// boxes (irot angle is anti-clockwise; imir 0 = top-bottom, 1 = left-right; ipma order):
    /// 90° ccw then top-bottom = transpose (5), 270° ccw then top-bottom = transverse (7).
    static let avifOrientations: [(String, Orientation)] = [
        ("rot0mir0", .downMirrored), ("rot0mir1", .upMirrored),
        ("rot1mir0", .leftMirrored), ("rot1mir1", .rightMirrored),
        ("rot2mir0", .upMirrored), ("rot2mir1", .downMirrored),
        ("rot3mir0", .rightMirrored), ("rot3mir1", .leftMirrored),
    ]

    @Test("HEICFileInfo reads Pillow's irot x imir AVIFs, and libheif agrees on what they mean",
          .needsThirdPartyImages)
    func pillowAVIFs() throws {
        var upright: RGBImage?
        for (name, expected) in Self.avifOrientations {
            let file = try #require(try ThirdPartyImages.bytes("pillow-avif-rot-mir/\(name).avif"))
            let info = try HEICFileInfo(data: file)
            #expect(info.orientation == expected, "\(name)")
            #expect(info.displayedSize == PixelSize(width: 640, height: 427), "\(name)")
            #expect(info.storedSize == expected.inverse.apply(to: PixelSize(width: 640, height: 427)), "\(name)")

            // Our reading of the boxes, applied to the stored pixels, equals libheif's display.
            let stored = RGBImage(try HEICDecoder.decodeRGB(file, applyingTransformations: false))
            let shown = RGBImage(try HEICDecoder.decodeRGB(file, applyingTransformations: true))
            let ours = stored.transformed(by: info.orientation)
            #expect(ours.size == shown.size, "\(name)")
            // Compared outside #expect, whose report of a failure would diff the megabytes.
            let samePixels = ours.pixels == shown.pixels
            #expect(samePixels, "\(name): libheif applies the transforms differently")

            // And all eight files show one upright picture: of the 8 orientations applied to
            // the stored pixels, ours is the one closest to rot0mir0's display, by a wide
            // margin. (Each file was encoded separately and carries its own centre label, so
            // the correct one scores up to ~8.5, not 0; a wrong transform scores > 20.)
            let reference = upright ?? shown
            upright = reference
            var scores: [Orientation: Double] = [:]
            for candidate in Orientation.allCases {
                let candidateImage = stored.transformed(by: candidate)
                scores[candidate] = candidateImage.size == shown.size && candidateImage.size == reference.size
                    ? candidateImage.meanAbsoluteDifference(to: reference) : .infinity
            }
            #expect(scores[expected]! <= 10, "\(name): \(scores)")
            #expect(scores.filter { $0.key != expected }.values.allSatisfy { $0 > 20 }, "\(name): \(scores)")
        }
    }

    @Test("pillow_heif_arrow.heic: irot 270° anticlockwise reads as EXIF 6, like its EXIF",
          .needsThirdPartyImages)
    func arrow() throws {
        let file = try #require(try ThirdPartyImages.bytes("pillow-heif/pillow_heif_arrow.heic"))
        let info = try HEICFileInfo(data: file)
        #expect(info.orientation == .right)
        #expect(info.storedSize == PixelSize(width: 4032, height: 3024))
        #expect(info.displayedSize == PixelSize(width: 3024, height: 4032))
        #expect(try EXIFReader(data: try #require(info.exifBlock)).orientation == .right)
        let general = try ImageFileInfo(data: file)
        #expect(general.format == .heic)
        #expect(general.orientation == .right && general.exifOrientation == .right)
    }
}

@Suite("HEIC at sizes that are not multiples of the HEVC block size")
struct HEICOddSizeTests {
    @Test("odd sizes (conformance window, grid-wrapped thumbnail) keep stored ispe and display right",
          arguments: [Orientation.leftMirrored, .right, .down])
    func oddSize(orientation: Orientation) throws {
        let size = PixelSize(width: 250, height: 186), thumbnailSize = PixelSize(width: 66, height: 50)
        let file = try HEICEncoder(preset: .ultrafast).encode(
            try TestImage.planarQuadrants(size), quality: 90, orientation: orientation,
            thumbnail: try TestImage.planarQuadrants(thumbnailSize), exif: nil)
        let info = try HEICFileInfo(data: file)
        #expect(info.storedSize == size)
        #expect(info.displayedSize == orientation.apply(to: size))
        #expect(info.orientation == orientation)
        #expect(info.thumbnailSize == thumbnailSize)
        #expect(info.exifBlock == nil)
        let shown = RGBImage(try HEICDecoder.decodeRGB(file, applyingTransformations: true))
        let expected = TestImage.quadrants(size).transformed(by: orientation)
        #expect(shown.size == expected.size)
        let difference = shown.size == expected.size ? shown.meanAbsoluteDifference(to: expected) : .infinity
        #expect(difference <= 6)
        let thumbnail = try #require(try HEICDecoder.decodeThumbnailRGB(file, applyingTransformations: true))
        #expect(thumbnail.size == orientation.apply(to: thumbnailSize))
    }
}
