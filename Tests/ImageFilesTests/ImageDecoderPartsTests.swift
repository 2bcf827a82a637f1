import Foundation
import ImageFiles
import Imaging
import Testing
import TestSupport

/// The decoder's parts beside whole pictures — rows as stored, embedded thumbnails, PNG
/// encoding — judged by ImageMagick and exiftool.
@Suite struct ImageDecoderPartsTests {
    /// Every row `decodeRows` gives, in order, as one picture; nil when it gives none.
    static func rows(of file: String) throws -> RGBImage? {
        var pixels: [UInt8] = []
        var next = 0
        var inOrder = true
        let size = try ImageDecoder().decodeRows(of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), name: file) { size, y, row in
            inOrder = inOrder && y == next && row.count >= size.width * 3
            next += 1
            pixels += row.prefix(size.width * 3)
        }
        #expect(inOrder, "\(file): rows out of order or short")
        return size.map { RGBImage(size: $0, pixels: pixels) }
    }

    @Test("rows as stored: a PNG's and an EXIF-turned JPEG's are ImageMagick's stored pixels; a HEIC reads as nil")
    func rowsAsStored() throws {
        let png = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let turnedJPEG = TestPaths.testImages.appendingPathComponent("third-party/recurser-exif-orientation-examples/Landscape_6.jpg").path
        for file in [png, turnedJPEG] {
            let rows = try #require(try Self.rows(of: file), "\(file) is read by rows")
            // The same libpng and libjpeg decode in ImageMagick: the same bytes.
            let stored = try ReferenceDecoder.imageMagickStored(file)
            #expect(rows.size == stored.size && rows.pixels == stored.pixels, "\(file)")
        }
        let heic = TestPaths.testImages.appendingPathComponent("third-party/pillow-heif/pillow_heif_arrow.heic").path
        #expect(try Self.rows(of: heic) == nil)
    }

    /// Every pair of rows `decodeRowPairs` gives, as two pictures; nil when it gives none.
    static func rowPairs(_ file: String, _ other: String) throws -> (RGBImage, RGBImage)? {
        var (pixels, otherPixels): ([UInt8], [UInt8]) = ([], [])
        let size = try ImageDecoder().decodeRowPairs(ofFileAt: file, andFileAt: other) { row, otherRow in
            pixels += row
            otherPixels += otherRow
        }
        return size.map { (RGBImage(size: $0, pixels: pixels), RGBImage(size: $0, pixels: otherPixels)) }
    }

    @Test("row pairs with a TIFF (RGB, grey, tiled) are ImageMagick's stored rows of both; a turned TIFF or another size gives none")
    func tiffRowPairs() throws {
        let folder = try TemporaryDirectory("decoder-tiff-pairs")
        let source = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let png = folder.path("a.png")
        try ExternalTool.run("convert", [source, "-resize", "301x203!", "PNG24:" + png]).checked()
        // Scanlines of RGB and of grey; tiles, through libtiff's RGBA reader a band at a time.
        let kinds: [(String, [String])] = [("rgb", ["-compress", "lzw", "-define", "tiff:rows-per-strip=16"]),
                                           ("grey", ["-colorspace", "Gray", "-compress", "none"]),
                                           ("tiled", ["-define", "tiff:tile-geometry=64x64", "-compress", "zip"])]
        for (name, options) in kinds {
            let tiff = folder.path("\(name).tif")
            try ExternalTool.run("convert", [png] + options + [tiff]).checked()
            let stored = try ReferenceDecoder.imageMagickStored(tiff)
            for (file, other) in [(tiff, png), (png, tiff), (tiff, tiff)] {
                let (rows, otherRows) = try #require(try Self.rowPairs(file, other), "\(file) \(other)")
                #expect(rows == (file == tiff ? stored : try ReferenceDecoder.imageMagickStored(png)), "\(file) \(other)")
                #expect(otherRows == (other == tiff ? stored : try ReferenceDecoder.imageMagickStored(png)), "\(file) \(other)")
            }
        }
        // Shown turned, a TIFF is not its stored rows: the caller decodes it whole.
        let turned = folder.path("turned.tif")
        try ExternalTool.run("convert", [png, turned]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", turned]).checked()
        #expect(try Self.rowPairs(turned, png) == nil && (try Self.rowPairs(png, turned)) == nil)
        let smaller = folder.path("smaller.tif")
        try ExternalTool.run("convert", [png, "-resize", "300x203!", smaller]).checked()
        #expect(try Self.rowPairs(smaller, png) == nil && (try Self.rowPairs(folder.path("rgb.tif"), smaller)) == nil)
    }

    @Test("an EXIF thumbnail shown with the file's orientation, or as stored; none is nil")
    func exifThumbnail() throws {
        let folder = try TemporaryDirectory("decoder-thumbnail")
        // A thumbnail that no turn or mirror leaves as it was: one dark corner, wider than high.
        let thumbnail = folder.path("thumb.jpg")
        try ExternalTool.run("convert", ["-size", "64x32", "xc:white", "-fill", "black", "-draw", "rectangle 0,0 15,11",
                                         "-quality", "95", thumbnail]).checked()
        let main = folder.path("main.jpg")
        try ExternalTool.run("convert", ["-size", "128x64", "xc:gray", main]).checked()
        #expect(try ImageDecoder().decodeThumbnail(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: main)))) == nil)
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-ThumbnailImage<=\(thumbnail)", "-Orientation#=6", main]).checked()

        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: main)))
        let shown = try #require(try ImageDecoder().decodeThumbnail(bytes: data))
        let stored = try #require(try ImageDecoder(appliesOrientation: false).decodeThumbnail(bytes: data))
        // Orientation 6: turned 90° clockwise to be shown.
        let reference = try PPM.parse(try ExternalTool.run("convert", [thumbnail, "-rotate", "90", "-depth", "8", "ppm:-"]).checked().stdout)
        #expect(shown.size == PixelSize(width: 32, height: 64) && shown.pixels == reference.pixels)
        let asStored = try ReferenceDecoder.imageMagickStored(thumbnail)
        #expect(stored.size == PixelSize(width: 64, height: 32) && stored.pixels == asStored.pixels)
    }

    @Test("PNG data reads back as the same pixels in ImageMagick")
    func pngData() throws {
        var generator = SeededGenerator(seed: 36)
        let size = PixelSize(width: 37, height: 23)
        let image = RGBImage(size: size, pixels: (0..<size.area * 3).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let folder = try TemporaryDirectory("encoder-png")
        let file = try folder.write([UInt8](try ImageEncoder.pngData(image)), named: "noise.png")
        let read = try ReferenceDecoder.imageMagickStored(file)
        #expect(read.size == size && read.pixels == image.pixels)
    }
}
