import Codecs
import Foundation
import Imaging
import PhotoCapture
@testable import PhotoCaptureTesting
import Testing
import TestSupport

/// Reading a picture a band of rows at a time (``RGBRowReader``, ``GoldenRows``) gives exactly
/// what the whole decode gives: the same bytes turned, the same comparison, the same
/// difference image. The whole decode (TurboJPEG, libpng's simplified API, a turned copy) is the
/// independent reference; mutations that break it: a wrong band map (dx/dy swapped), a lost
/// last band, rows decoded with other DCT or upsampling settings, palette or grey not expanded.
@Suite struct GoldenRowsTests {
    static let jpegs = ["recurser-exif-orientation-examples/Landscape_3.jpg", "recurser-exif-orientation-examples/Portrait_6.jpg",
                        "pillow-hopper-orientation/hopper_orientation_5.jpg", "pillow-hopper-orientation/hopper_orientation_8.jpg",
                        "pillow-hopper-orientation/orientation_rectangle.jpg"]

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestPaths.testImages.appendingPathComponent("third-party/\(name)")))
    }

    @Test("a JPEG decoded by rows into each of the eight turns is the whole decode turned, byte for byte")
    func turnedByRows() throws {
        for name in Self.jpegs {
            let data = try Self.bytes(name)
            let whole = try JPEGDecoder().decodeRGB(data)
            let stored = RGBImage(size: whole.size, pixels: whole.rgb)
            for orientation in Orientation.allCases {
                let turned = try #require(try RGBRowReader.readTurned(data, by: orientation), "\(name)")
                #expect(turned == stored.transformed(by: orientation), "\(name) \(orientation)")
            }
        }
    }

    @Test("PNG rows (1-bit, grey, palette, RGB) are the simplified API's bytes; alpha, 16-bit and interlaced PNGs are left to it")
    func pngRows() throws {
        let folder = try TemporaryDirectory("png-rows")
        let source = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let kinds: [(String, [String], Bool)] = [
            ("rgb", ["-resize", "301x203!"], true), ("grey", ["-resize", "301x203!", "-colorspace", "Gray"], true),
            ("bits", ["-resize", "301x203!", "-monochrome"], true), ("palette", ["-resize", "301x203!", "-colors", "16", "-type", "Palette"], true),
            ("deep", ["-resize", "301x203!", "-depth", "16"], false), ("alpha", ["-resize", "301x203!", "-alpha", "set"], false),
            ("interlaced", ["-resize", "301x203!", "-interlace", "PNG"], false),
        ]
        for (name, options, streamed) in kinds {
            let path = folder.path("\(name).png")
            try ExternalTool.run("convert", [source] + options + [path]).checked()
            let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let rows = try RGBRowReader.readTurned(data, by: .up)
            #expect((rows != nil) == streamed, "\(name)")
            if let rows { #expect(rows == (try PNGFile.read(data)), "\(name)") }
        }
    }

    @Test("a golden read by rows (JPEG, PNG, TIFF) compares as the whole golden does: match, pixels, size, and the turn that explains a mismatch")
    func comparisons() throws {
        let folder = try TemporaryDirectory("golden-rows")
        let landscape = "recurser-exif-orientation-examples/Landscape_6.jpg"
        let golden = TestPaths.testImages.appendingPathComponent("third-party/\(landscape)").path
        let shown = try DisplayedImage(fileAt: golden).image
        let pngGolden = folder.path("golden.png")
        try shown.writePNG(to: pngGolden, overwrite: false)
        // TIFF goldens, read from the file: the JPEG's stored pixels with its Orientation, and
        // the shown picture with none.
        let (turnedTIFF, tiffGolden) = (folder.path("turned.tif"), folder.path("golden.tif"))
        try ExternalTool.run("convert", [golden, "-compress", "lzw", turnedTIFF]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", turnedTIFF]).checked()
        try ExternalTool.run("convert", [pngGolden, "-compress", "none", tiffGolden]).checked()
        #expect(try DisplayedImage(fileAt: turnedTIFF).image == shown && (try DisplayedImage(fileAt: tiffGolden).image) == shown)
        var brighter = shown
        for index in stride(from: 0, to: brighter.pixels.count, by: 7) { brighter.pixels[index] = brighter.pixels[index] &+ 40 }
        let pictures = [shown, shown.transformed(by: .right), shown.transformed(by: .upMirrored), brighter,
                        try DisplayedImage(fileAt: TestPaths.testImages.appendingPathComponent("third-party/\(Self.jpegs[0])").path).image]
        var verdicts: Set<String> = []
        for path in [golden, pngGolden, turnedTIFF, tiffGolden] {
            let rows = try #require(try GoldenRows(fileAt: path))
            let whole = try DisplayedImage(fileAt: path).image
            for picture in pictures {
                let expected = ImageComparison(actual: picture, golden: whole)
                let streamed = try #require(try rows.compare(picture, tolerance: GoldenTolerance()))
                #expect(streamed == expected, "\(path): \(streamed) vs \(expected)")
                verdicts.insert("\(expected.verdict)")
                if picture.size == whole.size {
                    var marked = picture
                    #expect(try rows.markDifferences(in: &marked))
                    #expect(marked == ImageComparison.differenceImage(actual: picture, golden: whole))
                }
            }
        }
        // The cases above cover every verdict, so each path of the streamed judgement ran.
        #expect(verdicts.count == 4, "\(verdicts)")
    }
}
