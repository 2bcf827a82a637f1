import CYUV

extension PlanarImage {
    /// A copy scaled to `size` with an area (box) filter, which averages every source pixel
    /// and so does not alias when shrinking.
    package func scaled(to target: PixelSize) throws(ImagingError) -> PlanarImage {
        let output = try PlanarImage(size: target)
        let source = planes, destination = output.planes
        let code = I420Scale(
            source.y, Int32(lumaStride), source.cb, Int32(chromaStride), source.cr, Int32(chromaStride),
            Int32(size.width), Int32(size.height),
            destination.y, Int32(output.lumaStride), destination.cb, Int32(output.chromaStride),
            destination.cr, Int32(output.chromaStride), Int32(target.width), Int32(target.height), kFilterBox)
        guard code == 0 else { throw .libyuvFailed(function: "I420Scale", code: code) }
        return output
    }

    /// The pixels as packed 8-bit RGB (R, G, B in memory), rows without padding.
    package func rgbBytes() throws(ImagingError) -> [UInt8] {
        try packed(bytesPerPixel: 3, "J420ToRAW", J420ToRAW)
    }

    /// Rows `rows` of ``rgbBytes()``, the same bytes, into `target` (rows without padding): a
    /// strip at a time, without the whole picture's RGB.
    package func rgbBytes(rows: Range<Int>, into target: UnsafeMutableRawBufferPointer) throws(ImagingError) {
        let rowBytes = size.width * 3
        precondition(rows.lowerBound >= 0 && rows.upperBound <= size.height && target.count >= rows.count * rowBytes,
                     "rows \(rows) of \(size) do not fit \(target.count) bytes")
        let source = planes
        for (index, row) in rows.enumerated() {
            // One row at a time with its own chroma row: 4:2:0 pairs rows from even ones, and a
            // strip may start at an odd one.
            let chroma = row / 2 * chromaStride
            let code = J420ToRAW(source.y + row * lumaStride, Int32(lumaStride), source.cb + chroma, Int32(chromaStride),
                                 source.cr + chroma, Int32(chromaStride), target.baseAddress!.assumingMemoryBound(to: UInt8.self) + index * rowBytes,
                                 Int32(rowBytes), Int32(size.width), 1)
            guard code == 0 else { throw .libyuvFailed(function: "J420ToRAW", code: code) }
        }
    }

    /// The libyuv signature of the J420 to packed converters.
    private typealias PackedConversion = (UnsafePointer<UInt8>?, Int32, UnsafePointer<UInt8>?, Int32, UnsafePointer<UInt8>?, Int32,
                                          UnsafeMutablePointer<UInt8>?, Int32, Int32, Int32) -> Int32

    /// The pixels through one of libyuv's J420 → packed converters, rows without padding.
    private func packed(bytesPerPixel: Int, _ function: String, _ convert: PackedConversion) throws(ImagingError) -> [UInt8] {
        let source = planes
        var bytes = [UInt8](repeating: 0, count: size.area * bytesPerPixel)
        let code = bytes.withUnsafeMutableBufferPointer { buffer in
            convert(source.y, Int32(lumaStride), source.cb, Int32(chromaStride), source.cr, Int32(chromaStride),
                    buffer.baseAddress, Int32(size.width * bytesPerPixel), Int32(size.width), Int32(size.height))
        }
        guard code == 0 else { throw .libyuvFailed(function: function, code: code) }
        return bytes
    }

    /// Converts packed RGB (R, G, B in memory, `bytesPerRow` per row) to a planar image.
    package convenience init(rgb: UnsafeBufferPointer<UInt8>, size: PixelSize, bytesPerRow: Int? = nil) throws(ImagingError) {
        let stride = bytesPerRow ?? size.width * 3
        guard rgb.count >= stride * size.height else {
            throw .frameTooSmall(expected: stride * size.height, actual: rgb.count, format: .rgb24, size: size)
        }
        try self.init(size: size)
        let target = planes
        let code = RAWToJ420(rgb.baseAddress, Int32(stride), target.y, Int32(lumaStride), target.cb, Int32(chromaStride),
                             target.cr, Int32(chromaStride), Int32(size.width), Int32(size.height))
        guard code == 0 else { throw .libyuvFailed(function: "RAWToJ420", code: code) }
    }
}

extension PlanarImage {
    /// The pixels as packed 8-bit BGRA (B, G, R, A in memory; alpha 255), rows without padding:
    /// libyuv's "ARGB" word order on a little-endian machine, as `kCVPixelFormatType_32BGRA`.
    package func bgraBytes() throws(ImagingError) -> [UInt8] {
        try packed(bytesPerPixel: 4, "J420ToARGB", J420ToARGB)
    }

    /// The pixels as NV12: the luma plane, then one plane of interleaved Cb, Cr pairs, rows
    /// without padding.
    package func nv12Planes() throws(ImagingError) -> (luma: [UInt8], chroma: [UInt8]) {
        let source = planes
        var luma = [UInt8](repeating: 0, count: size.area)
        var chroma = [UInt8](repeating: 0, count: chromaSize.area * 2)
        let code = luma.withUnsafeMutableBufferPointer { y in
            chroma.withUnsafeMutableBufferPointer { uv in
                I420ToNV12(source.y, Int32(lumaStride), source.cb, Int32(chromaStride), source.cr, Int32(chromaStride),
                           y.baseAddress, Int32(size.width), uv.baseAddress, Int32(chromaSize.width * 2),
                           Int32(size.width), Int32(size.height))
            }
        }
        guard code == 0 else { throw .libyuvFailed(function: "I420ToNV12", code: code) }
        return (luma, chroma)
    }
}
