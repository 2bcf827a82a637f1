import Codecs
import Foundation
import PhotoCapture
import PhotoCaptureTesting
import Testing
import TestSupport

/// ``DisplayedImage`` per format, judged by third-party readers, and the PNG it writes.
@Suite struct DisplayedImageTests {
    /// An asymmetric picture: four coloured quadrants with a white square top-left.
    static func quadrants(_ size: PixelSize) -> RGBImage {
        var rgb = [UInt8](repeating: 0, count: size.area * 3)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let left = x < size.width / 2, top = y < size.height / 2
                var colour: [UInt8] = left ? (top ? [220, 40, 40] : [40, 60, 210]) : (top ? [40, 200, 60] : [230, 210, 40])
                if x >= size.width / 8, x < size.width / 4, y >= size.height / 8, y < size.height / 4 { colour = [250, 250, 250] }
                rgb.replaceSubrange((y * size.width + x) * 3..<(y * size.width + x) * 3 + 3, with: colour)
            }
        }
        return RGBImage(size: size, pixels: rgb)
    }

    @Test("PNGs we write read back exactly, in ImageMagick too; ImageMagick's grey, palette and 16-bit PNGs read as it reads them")
    func png() throws {
        let folder = try TemporaryDirectory("png")
        let picture = Self.quadrants(PixelSize(width: 67, height: 45))
        let path = folder.path("q.png")
        try picture.writePNG(to: path, overwrite: false)
        #expect(try DisplayedImage(fileAt: path).image == picture)
        #expect(try ReferenceDecoder.imageMagickStored(path) == picture)
        #expect(throws: GoldenImageError.self) { try picture.writePNG(to: path, overwrite: false) }
        for (name, options) in [("grey", ["-colorspace", "Gray"]), ("palette", ["-colors", "16", "-type", "Palette"]),
                                ("deep", ["-depth", "16"])] {
            let other = folder.path("\(name).png")
            try ExternalTool.run("convert", [path] + options + [other]).checked()
            let ours = try DisplayedImage(fileAt: other)
            #expect(ours.format == .png)
            #expect(ours.image.meanAbsoluteDifference(to: try ReferenceDecoder.imageMagickStored(other)) <= 0.5, "\(name)")
        }
    }

    @Test("a damaged or unknown file is a clean error naming it")
    func damaged() throws {
        let folder = try TemporaryDirectory("damaged")
        let png = try Self.quadrants(PixelSize(width: 32, height: 32)).pngData()
        let cut = try folder.write([UInt8](png.prefix(60)), named: "cut.png")
        #expect { try DisplayedImage(fileAt: cut) } throws: { error in
            guard let error = error as? GoldenImageError, case .undecodable = error.code else { return false }
            return error.description.hasPrefix(cut) && error.description.contains("PNG")
        }
        let text = try folder.write(Array("hello".utf8), named: "text.jpg")
        #expect(throws: GoldenImageError.self) { try DisplayedImage(fileAt: text) }
        // The cause stays typed, and the sentence is the file layer's reason after the path.
        let absent = folder.path("absent.png")
        #expect { try DisplayedImage(fileAt: absent) } throws: { error in
            guard let error = error as? GoldenImageError else { return false }
            return error.code == .unreadable(.noSuchFile(path: absent)) && error.description == "\(absent): no such file"
                && error.underlyingError as? FileReadError == .noSuchFile(path: absent)
        }
        #expect { try DisplayedImage(fileAt: folder.url.path) } throws: {
            ($0 as? GoldenImageError)?.code == .unreadable(.directory(path: folder.url.path))
        }
    }

    @Test("HEIC: irot/imir applied once, as libheif's heif-convert shows it; EXIF inside agrees",
          .enabled(if: ThirdPartyImages.folder != nil, Comment(rawValue: ThirdPartyImages.absentMessage)))
    func heic() throws {
        let arrow = ThirdPartyImages.folder!.appendingPathComponent("pillow-heif/pillow_heif_arrow.heic").path
        let shown = try DisplayedImage(fileAt: arrow)
        #expect(shown.format == .heif && shown.appliedOrientation == .right)
        #expect(shown.image.size == PixelSize(width: 3024, height: 4032))
        let folder = try TemporaryDirectory("heic")
        let converted = folder.path("arrow.png")
        try ExternalTool.run("heif-convert", [arrow, converted]).checked()
        #expect(try ImageComparison(actual: shown.image, golden: ReferenceDecoder.imageMagickStored(converted),
                                    tolerance: GoldenTolerance(meanAbsoluteDifference: 1)).isWithinTolerance)
        #expect(try OrientationConsistency.problems(inFileAt: arrow) == [])
    }

    @Test("DNG: developed with its Orientation, as dcraw shows it")
    func dng() async throws {
        let folder = try TemporaryDirectory("dng")
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(.synthetic(.init(sensorMounting: SensorMounting(rotation: 90, isMirrored: false),
                                              maximumSize: PixelSize(width: 320, height: 240), framesPerSecond: 200)))
        try session.addOutput(output)
        try await session.startRunning()
        var settings = PhotoSettings(rawPixelFormat: .sgbrg10)
        settings.rotationAngle = 180  // with the sensor's quarter turn: a quarter turn in the Orientation tag
        let photo = try await output.capturePhoto(with: settings)
        await session.stopRunning()
        let path = folder.path("raw.dng")
        try photo.write(to: path)
        let shown = try DisplayedImage(fileAt: path)
        #expect(shown.format == .dng && shown.appliedOrientation.swapsDimensions)
        #expect(shown.appliedOrientation == photo.writtenOrientation)
        let comparison = ImageComparison(actual: shown.image, golden: try ReferenceDecoder.dcraw(path),
                                         tolerance: GoldenTolerance(meanAbsoluteDifference: 4))
        #expect(comparison.isWithinTolerance, "\(comparison)")
    }
}
