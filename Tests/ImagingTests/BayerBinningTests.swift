import Imaging
import Testing

/// Bayer mosaics with a known sensor response, and binning for RAW previews, against per-sample
/// references computed here.
@Suite struct BayerBinningTests {
    /// Distinct values in every channel and pixel.
    static func scene(_ size: PixelSize) -> RGBImage {
        RGBImage(size: size, pixels: (0..<size.area * 3).map { UInt8(($0 * 37 + $0 / 7) % 256) })
    }

    /// The sample at (x, y) of a Bayer frame, read from its bytes.
    static func sample(_ frame: Frame, x: Int, y: Int) -> Int {
        frame.storage.withUnsafeBytes { bytes in
            frame.format.bitsPerSample == 8
                ? Int(bytes[y * frame.bytesPerRow + x])
                : Int(bytes[y * frame.bytesPerRow + 2 * x]) | Int(bytes[y * frame.bytesPerRow + 2 * x + 1]) << 8
        }
    }

    @Test(arguments: FramePixelFormat.allCases.filter(\.isBayer))
    func mosaicTakesEachSitesChannelThroughItsCurve(format: FramePixelFormat) throws {
        let size = PixelSize(width: 10, height: 6)
        let image = Self.scene(size)
        let limit = (1 << format.bitsPerSample) - 1
        let curves = (0..<3).map { channel in (0..<256).map { UInt16(($0 * (channel + 2) * 131) % (limit + 1)) } }
        // CSI-2 packed frames are read through the unpacking that CSI2PackingTests checks
        // (10 is not a multiple of 4: the 10-bit rows end in a partial group).
        let delivered = try FrameBuilder.bayerFrame(from: image, format: format, curves: curves)
        #expect(delivered.format == format)
        let frame = try delivered.unpackedCSI2()
        let tile = format.bayerPattern!.colorIndices
        for y in 0..<size.height {
            for x in 0..<size.width {
                let channel = Int(tile[(y % 2) * 2 + x % 2])
                let expected = Int(curves[channel][Int(image.pixels[(y * size.width + x) * 3 + channel])])
                #expect(Self.sample(frame, x: x, y: y) == expected, "\(format) (\(x), \(y))")
            }
        }
    }

    /// Each binned site is the rounded mean of the same site over its block of tiles; edge blocks
    /// average the tiles they have.
    @Test(arguments: [(FramePixelFormat.sgbrg8, 1), (.sgbrg8, 3), (.srggb12, 4), (.sbggr16, 2), (.sgrbg10, 5)])
    func binningAveragesTheSameSites(format: FramePixelFormat, factor: Int) throws {
        let size = PixelSize(width: 26, height: 18)  // 13 × 9 tiles: partial blocks for most factors
        let frame = try FrameBuilder.frame(from: Self.scene(size), format: format)
        let binned = try frame.binnedBayer(by: factor)
        let tiles = (x: (13 + factor - 1) / factor, y: (9 + factor - 1) / factor)
        #expect(binned.size == PixelSize(width: 2 * tiles.x, height: 2 * tiles.y))
        #expect(binned.format == format)
        for ty in 0..<tiles.y {
            for tx in 0..<tiles.x {
                for site in 0..<4 {
                    var sum = 0, count = 0
                    for sy in (ty * factor)..<min(9, (ty + 1) * factor) {
                        for sx in (tx * factor)..<min(13, (tx + 1) * factor) {
                            sum += Self.sample(frame, x: 2 * sx + site % 2, y: 2 * sy + site / 2)
                            count += 1
                        }
                    }
                    #expect(Self.sample(binned, x: 2 * tx + site % 2, y: 2 * ty + site / 2) == (sum + count / 2) / count,
                            "\(format) ×\(factor) tile (\(tx), \(ty)) site \(site)")
                }
            }
        }
    }

    @Test func onlyBayerFramesBin() throws {
        let frame = try FrameBuilder.frame(from: Self.scene(PixelSize(width: 8, height: 8)), format: .rgb24)
        #expect(throws: ImagingError.notBayer(.rgb24)) { try frame.binnedBayer(by: 2) }
    }

    @Test func rgbScalingAveragesAreas() throws {
        // 4x2 → 2x1: each output pixel is the mean of a 2×2 block.
        let image = RGBImage(size: PixelSize(width: 4, height: 2),
                             pixels: [0, 0, 0, 100, 100, 100, 200, 0, 0, 200, 0, 0,
                                      0, 0, 0, 100, 100, 100, 200, 0, 0, 200, 0, 0])
        let scaled = try image.scaled(to: PixelSize(width: 2, height: 1))
        #expect(scaled.pixels == [50, 50, 50, 200, 0, 0])
    }
}
