import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// Auxiliary images written into a re-encoded file: here into a picture that the
/// encoder codes as a grid of tiles, as a 48 MP phone picture is, where `auxl` must name the
/// grid item libheif never saw.
@Suite struct HEIFAuxiliaryWriterTests {
    /// A 200x150 picture with a depth image, turned 90° clockwise: the 150x200 re-encode coded
    /// as 3x4 tiles gets the depth image, turned as ImageMagick turns the original's (both
    /// decoded by heif-convert), within the re-encoding tolerance; the picture itself is
    /// untouched and libheif and exiftool read the file without complaint.
    @Test func aDepthImageFollowsAPictureCodedAsAGrid() throws {
        let folder = try TemporaryDirectory("aux-grid")
        let input = try DepthHEIC.make(bits: 8, width: 200, height: 150, in: folder)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        let encoder = try HEICEncoder(preset: .ultrafast)
        encoder.tiling = HEICEncoder.Tiling(threshold: 0, tileSide: 64)
        let size = PixelSize(width: 150, height: 200)
        let output = try encoder.encode(TestImage.planarQuadrants(size), quality: 90, orientation: .up, thumbnail: nil, exif: nil)
        let (bytes, dropped) = try HEIFAuxiliaryWriter.carrying(auxiliaryImagesOf: original, turnedBy: .right, into: output,
                                                                encoder: encoder, quality: 90)
        #expect(dropped.isEmpty, "\(dropped)")
        #expect(try HEICDecoder.decodeRGB(bytes, applyingTransformations: true).rgb == HEICDecoder.decodeRGB(output, applyingTransformations: true).rgb)
        let path = try folder.write(bytes, named: "turned.heic")
        let info = try ExternalTool.run("heif-info", [path]).checked().text
        #expect(info.contains("image: 150x200") && info.contains("depth channel: yes\n (150x200)"), "\(info)")
        #expect(try HEICFileInfo(data: output).imageItems.count + 1 == HEICFileInfo(data: bytes).imageItems.count)

        func depth(_ heic: String, _ operations: [String] = []) throws -> RGBImage {
            let base = folder.url.appendingPathComponent(UUID().uuidString).path
            try ExternalTool.run("heif-convert", ["--with-aux", heic, base + ".png"]).checked()
            return try PPM.parse(try ExternalTool.run("convert", [base + "-depth.png"] + operations
                + ["-type", "TrueColor", "-depth", "8", "ppm:-"]).checked().stdout)
        }
        let turned = try depth(path), reference = try depth(input, ["-rotate", "90"]), opposite = try depth(input, ["-rotate", "270"])
        #expect(turned.size == size && reference.size == size)
        if turned.size == reference.size {
            #expect(turned.meanAbsoluteDifference(to: reference) <= 3)
            #expect(turned.meanAbsoluteDifference(to: opposite) > 20)
        }
        #expect(try ExternalTool.exiftoolValidationProblems(path) == [])
    }
}
