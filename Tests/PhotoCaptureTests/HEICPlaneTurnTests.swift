import Codecs
import Foundation
import Imaging
import PhotoCapture
import Testing
import TestSupport

/// ``ImageOrienter/turnsHEICPixels`` on 8-bit 4:2:0 HEICs in JFIF's coding: the
/// planes are decoded as coded — tile by tile for a grid — and turned as planes, never through
/// RGB. Judged by heif-convert (libheif applies irot/imir) against the source as shown.
@Suite struct HEICPlaneTurnTests {
    static let size = PixelSize(width: 1000, height: 700)

    /// The quadrant picture shown turned by `orientation`; with `tiling`, a grid of 4x3 tiles
    /// that the picture does not fill.
    static func source(_ orientation: Orientation, tiling: HEICEncoder.Tiling?) throws -> [UInt8] {
        let encoder = try HEICEncoder(preset: .ultrafast)
        encoder.tiling = tiling
        let planes = try RGBImage(size: size, pixels: Self.quadrants).planarImage()
        return try encoder.encode(planes, quality: 90, orientation: orientation, thumbnail: nil, exif: nil)
    }

    /// Quadrants of distinct colours and a white square in the top-left one.
    static let quadrants: [UInt8] = {
        var rgb = [UInt8](repeating: 0, count: size.area * 3)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let colours: [[UInt8]] = [[220, 40, 40], [40, 200, 60], [40, 60, 210], [230, 210, 40]]
                let marker = (125..<250).contains(x) && (88..<175).contains(y)
                let colour = marker ? [250, 250, 250] : colours[(x < size.width / 2 ? 0 : 1) + (y < size.height / 2 ? 0 : 2)]
                rgb.replaceSubrange((y * size.width + x) * 3..<((y * size.width + x) * 3 + 3), with: colour)
            }
        }
        return rgb
    }()

    /// What heif-convert shows for `file`.
    static func shown(_ file: [UInt8], in folder: TemporaryDirectory) throws -> RGBImage {
        let name = UUID().uuidString
        let path = try folder.write(file, named: name + ".heic"), png = folder.url.appendingPathComponent(name + ".png").path
        try ExternalTool.run("heif-convert", [path, png]).checked()
        return try ReferenceDecoder.imageMagickStored(png)
    }

    @Test(arguments: Orientation.allCases.filter { $0 != .up }, [false, true])
    func theTurnedPlanesShowWhatTheSourceShowed(orientation: Orientation, grid: Bool) throws {
        let folder = try TemporaryDirectory("heic-planes")
        let source = try Self.source(orientation, tiling: grid ? HEICEncoder.Tiling(threshold: 0, tileSide: 256) : nil)
        var orienter = ImageOrienter()
        orienter.turnsHEICPixels = true
        orienter.heicQuality = 90
        let result = try orienter.upright(Data(source))
        #expect(result.outcome == .turned(from: orientation, size: orientation.apply(to: Self.size)))
        let turned = [UInt8](try #require(result.data))
        #expect(try HEICFileInfo(data: turned).orientation == .up)

        let before = try Self.shown(source, in: folder), after = try Self.shown(turned, in: folder)
        #expect(after.size == before.size)
        // A second q90 generation: about 1 level; a wrong turn, or a tile out of place, tens.
        let difference = after.size == before.size ? after.meanAbsoluteDifference(to: before) : .infinity
        #expect(difference <= 3, "\(orientation), grid \(grid): MAD \(difference)")
    }
}
