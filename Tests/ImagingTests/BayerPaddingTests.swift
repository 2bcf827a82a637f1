import Imaging
import Testing

@Suite struct BayerPaddingTests {
    @Test("padding keeps the frame in the corner and repeats the last tile row and column, same colour sites")
    func padding() throws {
        // A 4x2 RGGB8 frame: row 0 = 1 2 3 4, row 1 = 5 6 7 8.
        let frame = try Frame(format: .srggb8, size: PixelSize(width: 4, height: 2), storage: FrameStorage(copying: [UInt8](1...8)))
        let padded = try frame.paddedBayer(toAtLeast: PixelSize(width: 7, height: 5))
        #expect(padded.size == PixelSize(width: 8, height: 6))
        let rows = padded.storage.withUnsafeBytes { bytes in (0..<6).map { Array(bytes[$0 * 8..<$0 * 8 + 8]) } }
        // Columns 4..7 repeat columns 2, 3 (the last tile); rows 2..5 repeat rows 0, 1.
        #expect(rows[0] == [1, 2, 3, 4, 3, 4, 3, 4])
        #expect(rows[1] == [5, 6, 7, 8, 7, 8, 7, 8])
        #expect(rows[2] == rows[0] && rows[4] == rows[0] && rows[3] == rows[1] && rows[5] == rows[1])
        let sixteen = try Frame(format: .sbggr16, size: PixelSize(width: 2, height: 2),
                                storage: FrameStorage(copying: [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08] as [UInt8]))
        let wide = try sixteen.paddedBayer(toAtLeast: PixelSize(width: 4, height: 2))
        #expect(wide.storage.withUnsafeBytes { Array($0) } == [1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 5, 6, 7, 8])
        #expect(try frame.paddedBayer(toAtLeast: PixelSize(width: 2, height: 2)).size == frame.size)
    }
}
