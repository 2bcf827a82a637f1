import Codecs
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// A HEIC that `irot` already shows upright but whose EXIF says 6 was re-encoded, losing its
/// profile, maker notes and auxiliary images; now only the EXIF is made to agree.
@Suite struct HEICEXIFConsistencyTests {
    @Test func onlyTheEXIFOrientationChanges() throws {
        let size = PixelSize(width: 64, height: 48)
        var image = RGBImage(size: size, pixels: [UInt8](repeating: 0, count: size.width * size.height * 3))
        for index in 0..<(size.width * size.height) where index % size.width < size.width / 2 { image.pixels[index * 3] = 255 }
        let exif = try EXIFBuilder.tiffBlock(for: EXIFMetadata(orientation: Orientation(exifValue: 6)), thumbnailJPEG: nil)
        let original = try HEICEncoder(preset: .ultrafast).encode(try image.planarImage(), quality: 90, orientation: .up,
                                                                  thumbnail: nil, exif: exif)
        #expect(try ImageFileInfo(data: original).exifOrientation == Orientation(exifValue: 6))

        let result = try ImageOrienter().upright(Data(original))
        #expect(result.outcome == .exifCorrected(from: Orientation(exifValue: 6), to: .up))
        let turned = [UInt8](try #require(result.data))
        // Same length, and the only bytes that differ lie in the EXIF block (IFD0 Orientation).
        #expect(turned.count == original.count)
        let changed = zip(turned, original).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        let block = try #require(original.firstRange(of: exif))
        #expect(!changed.isEmpty && changed.allSatisfy { block.contains($0) }, "\(changed)")
        let info = try ImageFileInfo(data: turned)
        #expect(info.orientation == .up && info.exifOrientation == .up && result.size == size)
        let folder = try TemporaryDirectory("heic-exif")
        let path = try folder.write(turned, named: "upright.heic")
        #expect(try ExternalTool.run("exiftool", ["-n", "-s3", "-IFD0:Orientation", path]).text == "1\n")
    }
}
