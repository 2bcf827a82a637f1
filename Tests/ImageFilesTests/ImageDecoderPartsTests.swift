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
