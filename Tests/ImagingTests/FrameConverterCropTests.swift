import Imaging
import Testing

/// The crop inside the one conversion pass, for every uncompressed frame format (4:2:2, 4:2:0
/// planar and semi-planar, packed RGB, greyscale, Bayer) and for orientations with and without
/// a quarter turn and a mirror: the output is the frame's crop, made even, then transformed.
@Suite struct FrameConverterCropTests {
    static let size = PixelSize(width: 64, height: 48)
    /// Odd origins and sides, to be made even; one touching the right and bottom edges.
    static let crops = [PixelRect(x: 9, y: 5, size: PixelSize(width: 31, height: 21)),
                        PixelRect(x: 20, y: 14, size: PixelSize(width: 44, height: 34)),
                        PixelRect(x: 0, y: 0, size: PixelSize(width: 16, height: 48))]
    static let orientations: [Orientation] = [.up, .right, .down, .leftMirrored, .upMirrored]

    @Test(arguments: FramePixelFormat.allCases.filter { !$0.isCompressed })
    func everyFormatCropsBeforeTheTransform(_ format: FramePixelFormat) throws {
        let scene = FrameConverterTests.scene(Self.size)
        let frame = try FrameBuilder.frame(from: scene, format: format)
        let converter = FrameConverter(stripHeight: 6)
        for crop in Self.crops {
            let effective = try FrameConverter.effectiveCrop(crop, frameSize: Self.size)
            // Even, and every edge within a pixel of the one asked for.
            let edges = [(effective.x, crop.x), (effective.y, crop.y),
                         (effective.x + effective.size.width, crop.x + crop.size.width),
                         (effective.y + effective.size.height, crop.y + crop.size.height)]
            #expect(edges.allSatisfy { $0.0 % 2 == 0 && abs($0.0 - $0.1) <= 1 }, "\(crop) → \(effective)")
            for orientation in Self.orientations {
                let output = try converter.convert(frame, crop: crop, applying: orientation)
                var expected = scene.cropped(to: effective).transformed(by: orientation)
                if format == .grey { expected = try expected.greyscaleReference() }
                #expect(output.size == expected.size, "\(format) \(crop) \(orientation)")
                guard output.size == expected.size else { continue }
                let difference = try output.rgbImage().meanAbsoluteDifference(to: expected)
                #expect(difference <= (format.isBayer ? FrameConverterTests.bayerTolerance : FrameConverterTests.tolerance),
                        "\(format) \(crop) \(orientation): \(difference)")
                // A crop taken from the wrong place must be far off.
                let elsewhere = scene.cropped(to: PixelRect(x: 0, y: 0, size: effective.size)).transformed(by: orientation)
                if effective.x != 0 || effective.y != 0 {
                    let wrong = try output.rgbImage().meanAbsoluteDifference(
                        to: format == .grey ? try elsewhere.greyscaleReference() : elsewhere)
                    #expect(wrong > 10, "\(format) \(crop) \(orientation) looks like the top-left crop")
                }
            }
        }
    }
}
