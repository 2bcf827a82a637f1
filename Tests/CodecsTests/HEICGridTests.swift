import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// Big pictures coded as a grid of tiles, as phones write them: x265 holds one tile
/// at a time. Small tiles here so that a small picture makes a grid: 1000x700 in 256x256 tiles
/// is 4x3 tiles whose last column and row the picture does not fill (1024x768 of tiles).
@Suite("HEIC grids of tiles")
struct HEICGridTests {
    static let size = PixelSize(width: 1000, height: 700)
    static let thumbnailSize = PixelSize(width: 160, height: 112)
    static let tiling = HEICEncoder.Tiling(threshold: 0, tileSide: 256)
    static let xmp = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>Ada</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>"#

    /// The quadrant picture shown turned by `orientation`, with a thumbnail, EXIF and XMP, coded
    /// with `tiling` (nil: one image).
    static func heic(_ orientation: Orientation, tiling: HEICEncoder.Tiling?) throws -> [UInt8] {
        let exif = try EXIFBuilder.tiffBlock(for: JPEGTests.fullMetadata(orientation: orientation, pixelSize: size), thumbnailJPEG: nil)
        let encoder = try HEICEncoder(preset: .ultrafast)
        encoder.tiling = tiling
        return try encoder.encode(TestImage.planarQuadrants(size), quality: 90, orientation: orientation,
                                  thumbnail: TestImage.planarQuadrants(thumbnailSize), exif: exif, xmp: xmp)
    }

    @Test("libheif shows the grid turned by its irot/imir, with thumbnail and EXIF", arguments: Orientation.allCases)
    func orientation(orientation: Orientation) throws {
        let file = try Self.heic(orientation, tiling: Self.tiling)
        let shown = RGBImage(try HEICDecoder.decodeRGB(file, applyingTransformations: true))
        let expected = TestImage.quadrants(Self.size).transformed(by: orientation)
        #expect(shown.size == expected.size)
        // As for one image (HEICTests): HEVC at q90 plus 4:2:0 chroma at the quadrant edges. A
        // tile out of place or a wrong turn differs by tens of levels.
        let difference = shown.size == expected.size ? shown.meanAbsoluteDifference(to: expected) : .infinity
        #expect(difference <= 6, "mean abs diff \(difference)")

        let info = try HEICFileInfo(data: file)
        #expect(info.orientation == orientation)
        #expect(info.storedSize == Self.size)
        #expect(info.displayedSize == orientation.apply(to: Self.size))
        #expect(info.thumbnailSize == Self.thumbnailSize)
        #expect(try EXIFReader(data: try #require(info.exifBlock)).orientation == orientation)
        let thumbnail = RGBImage(try #require(try HEICDecoder.decodeThumbnailRGB(file, applyingTransformations: true)))
        let expectedThumbnail = TestImage.quadrants(Self.thumbnailSize).transformed(by: orientation)
        #expect(thumbnail.size == expectedThumbnail.size)
        if thumbnail.size == expectedThumbnail.size { #expect(thumbnail.meanAbsoluteDifference(to: expectedThumbnail) <= 8) }
    }

    @Test("heif-info, ImageMagick and exiftool read the grid, its tiles hidden, metadata on the grid",
          arguments: [Orientation.up, .right, .leftMirrored, .downMirrored])
    func thirdPartyReaders(orientation: Orientation) throws {
        let folder = try TemporaryDirectory("heic-grid")
        let path = try folder.write(try Self.heic(orientation, tiling: Self.tiling), named: "grid.heic")
        let shownSize = orientation.apply(to: Self.size)

        let info = try ExternalTool.run("heif-info", [path])
        #expect(info.status == 0 && info.stderr.isEmpty, "heif-info: \(info.stderr)")
        // Only the grid is an image (the tiles are hidden); the grid is item 16, after the 12
        // tiles (1...12), the thumbnail (13), the Exif (14) and XMP (15) items.
        let images = info.text.split(separator: "\n").filter { $0.hasPrefix("image: ") }
        #expect(images == ["image: \(shownSize) (id=16), primary"], "heif-info said: \(info.text)")
        #expect(info.text.contains("  thumbnail: \(orientation.apply(to: Self.thumbnailSize))"), "heif-info said: \(info.text)")
        #expect(info.text.contains("Exif: ") && info.text.contains("XMP: "), "heif-info said: \(info.text)")
        #expect(info.text.contains("compatible brands: mif1, heic, miaf\n"), "heif-info said: \(info.text)")
        let boxes = try ExternalTool.run("heif-info", ["-d", path]).text
        #expect(boxes.contains("reference with type 'dimg' from ID: 16 to IDs: 1 2 3 4 5 6 7 8 9 10 11 12 \n"), "\(boxes)")
        #expect(boxes.contains("reference with type 'thmb' from ID: 13 to IDs: 16 \n"))
        #expect(boxes.contains("reference with type 'cdsc' from ID: 14 to IDs: 16 \n"))
        #expect(boxes.contains("reference with type 'cdsc' from ID: 15 to IDs: 16 \n"))
        #expect(boxes.contains("item_type: grid\n"))

        let identify = try ExternalTool.run("identify", ["-format", "%wx%h", path])
        #expect(identify.status == 0 && identify.text == "\(shownSize)", "identify said: \(identify.text) \(identify.stderr)")
        let png = folder.path("magick.png")
        try ExternalTool.run("convert", [path, png]).checked()
        let magick = try ReferenceDecoder.imageMagickStored(png)
        let expected = TestImage.quadrants(Self.size).transformed(by: orientation)
        #expect(magick.size == expected.size)
        if magick.size == expected.size { #expect(magick.meanAbsoluteDifference(to: expected) <= 6) }
        let converted = folder.path("heif-convert.png")
        try ExternalTool.run("heif-convert", [path, converted]).checked()
        let libheif = try ReferenceDecoder.imageMagickStored(converted)
        #expect(libheif.size == expected.size)
        if libheif.size == expected.size { #expect(libheif.meanAbsoluteDifference(to: expected) <= 6) }

        #expect(try ExternalTool.exiftoolValidationProblems(path) == [])
        let read = try ExternalTool.run("exiftool", ["-n", "-s3", "-EXIF:Orientation", "-XMP-dc:Creator", path])
        #expect(read.text.split(separator: "\n") == ["\(orientation.exifValue)", "Ada"], "exiftool said: \(read.text)")
    }

    @Test("a grid decodes to what the picture coded whole decodes to")
    func sameAsWhole() throws {
        let grid = RGBImage(try HEICDecoder.decodeRGB(try Self.heic(.up, tiling: Self.tiling), applyingTransformations: false))
        let whole = RGBImage(try HEICDecoder.decodeRGB(try Self.heic(.up, tiling: nil), applyingTransformations: false))
        #expect(grid.size == whole.size)
        // Both are q90 codings of one picture; they differ at the quadrant edges and, for the
        // grid, at the tile edges.
        if grid.size == whole.size { #expect(grid.meanAbsoluteDifference(to: whole) <= 2) }
    }

    @Test("pictures at most the threshold are one image; larger ones a grid of whole tiles")
    func layout() {
        let tiling = HEICEncoder.Tiling(threshold: 1000 * 700, tileSide: 256)
        #expect(tiling.layout(for: Self.size) == nil)
        let layout = tiling.layout(for: PixelSize(width: 1002, height: 700))
        #expect(layout?.columns == 4 && layout?.rows == 3 && layout?.tile == PixelSize(width: 256, height: 256))
    }
}
