import Imaging
import Testing
import TestSupport

/// MIPI CSI-2 packed Bayer formats (`pRAA`… 10-bit, `pRCC`… 12-bit): names, sizes, and
/// unpacking checked against a packer written from the V4L2 specification.
@Suite struct CSI2PackingTests {
    static let packed: [(FramePixelFormat, String, FramePixelFormat)] = [
        (.srggb10p, "pRAA", .srggb10), (.sgrbg10p, "pgAA", .sgrbg10), (.sgbrg10p, "pGAA", .sgbrg10), (.sbggr10p, "pBAA", .sbggr10),
        (.srggb12p, "pRCC", .srggb12), (.sgrbg12p, "pgCC", .sgrbg12), (.sgbrg12p, "pGCC", .sgbrg12), (.sbggr12p, "pBCC", .sbggr12),
    ]

    @Test func codesPatternsAndRowSizesFollowV4L2() {
        for (format, code, unpacked) in Self.packed {
            #expect(format.fourCC == code)
            #expect(FramePixelFormat(name: code) == format, "\(code)")
            #expect(format.isBayer && format.isCSI2Packed && !unpacked.isCSI2Packed)
            #expect(format.bayerPattern == unpacked.bayerPattern && format.bitsPerSample == unpacked.bitsPerSample)
            #expect(format.unpacked == unpacked)
            // 10-bit: 5 bytes per 4 pixels; 12-bit: 3 bytes per 2 (V4L2's bytesperline for 640).
            #expect(format.minimumBytesPerRow(width: 640) == (format.bitsPerSample == 10 ? 800 : 960))
        }
        // pgAA and pGAA differ only in case: any-case spelling is refused rather than guessed.
        #expect(FramePixelFormat(name: "pgaa") == nil && FramePixelFormat(name: "PGCC") == nil)
        #expect(FramePixelFormat(name: "praa") == .srggb10p && FramePixelFormat(name: "srggb12p") == .srggb12p)
        #expect(FramePixelFormat.bayer(.rggb, bits: 10) == .srggb10)
    }

    @Test(arguments: [10, 12])
    func unpackingGivesEverySampleBack(bits: Int) throws {
        let (width, height) = (64, 6)
        let values = CSI2Packer.pattern(width: width, height: height, bits: bits)
        let bytes = CSI2Packer.pack(values, width: width, bits: bits)
        let format: FramePixelFormat = bits == 10 ? .sgbrg10p : .sgbrg12p
        // Rows padded to a 16-byte stride, as drivers often deliver them.
        let rowBytes = width * bits / 8, stride = (rowBytes + 15) / 16 * 16
        var padded = [UInt8](repeating: 0xEE, count: stride * height)
        for row in 0..<height { padded.replaceSubrange(row * stride..<row * stride + rowBytes, with: bytes[row * rowBytes..<(row + 1) * rowBytes]) }
        let frame = try Frame(format: format, size: PixelSize(width: width, height: height), bytesPerRow: stride,
                              storage: FrameStorage(copying: padded))
        let unpacked = try frame.unpackedCSI2()
        #expect(unpacked.format == format.unpacked && unpacked.bytesPerRow == width * 2)
        let words = unpacked.storage.withUnsafeBytes { raw in (0..<width * height).map { UInt16(raw[2 * $0]) | UInt16(raw[2 * $0 + 1]) << 8 } }
        #expect(words == values)
        // And packing them again gives the specification's bytes.
        let repacked = try unpacked.packedCSI2(as: format)
        #expect(repacked.storage.withUnsafeBytes { [UInt8]($0) } == bytes)
    }
}
