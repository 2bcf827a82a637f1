import Imaging
import Testing

/// ``PlanarImage/rgbBytes(rows:into:)``, which a TIFF's strips are made from, against the whole
/// picture's ``PlanarImage/rgbBytes()``: the same bytes for any run of rows, from odd rows too
/// (whose chroma row they share with the row above).
@Suite struct PlanarImageRGBRowsTests {
    @Test(arguments: [1, 2, 3, 7, 23])
    func stripsAreTheWholePicturesRows(rowsPerStrip: Int) throws {
        let size = PixelSize(width: 37, height: 23)
        let pixels = (0..<size.area * 3).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        let image = try pixels.withUnsafeBufferPointer { try PlanarImage(rgb: $0, size: size) }
        let whole = try image.rgbBytes()
        let rowBytes = size.width * 3
        var strips = [UInt8](repeating: 0, count: whole.count)
        for first in stride(from: 0, to: size.height, by: rowsPerStrip) {
            let rows = first..<min(size.height, first + rowsPerStrip)
            try strips.withUnsafeMutableBytes { buffer in
                try image.rgbBytes(rows: rows, into: UnsafeMutableRawBufferPointer(rebasing: buffer[(first * rowBytes)...]))
            }
        }
        #expect(strips == whole)
    }
}
