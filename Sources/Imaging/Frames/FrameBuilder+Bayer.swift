import CImagingKernels

extension FrameBuilder {
    /// A Bayer frame of `format` showing `image`, each site's 8-bit value mapped through its
    /// channel's table in `curves` (red, green, blue; 256 sample values each, within the
    /// format's bit depth), as a simulated sensor with a known response would deliver it.
    package static func bayerFrame(from image: RGBImage, format: FramePixelFormat, curves: [[UInt16]],
                                  sequence: UInt64 = 0, timestampNanoseconds: UInt64 = 0) throws(ImagingError) -> Frame {
        guard format.isBayer else { throw .notBayer(format) }
        if format.isCSI2Packed {
            return try bayerFrame(from: image, format: format.unpacked, curves: curves, sequence: sequence,
                                  timestampNanoseconds: timestampNanoseconds).packedCSI2(as: format)
        }
        let limit = UInt16((1 << format.bitsPerSample) - 1)
        precondition(curves.count == 3 && curves.allSatisfy { $0.count == 256 && $0.allSatisfy { $0 <= limit } },
                     "three tables of 256 values within \(format.bitsPerSample) bits")
        let size = image.size
        guard size.width % 2 == 0, size.height % 2 == 0 else { throw .invalidSize(size) }
        let stride = format.minimumBytesPerRow(width: size.width)
        let storage = FrameStorage(count: stride * size.height) { buffer in
            image.pixels.withUnsafeBufferPointer { rgb in
                bayerMosaic(rgb.baseAddress!, size: size, format: format, curves: curves, stride: stride,
                            into: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        return try Frame(format: format, size: size, bytesPerRow: stride, storage: storage, sequence: sequence,
                         timestampNanoseconds: timestampNanoseconds)
    }

    /// The tables that scale 8-bit values to span `bits` bits (the low `bits` bits of a V4L2
    /// 16-bit word), as ``frame(from:format:sequence:timestampNanoseconds:)`` uses for Bayer.
    static func sampleCurves(for bits: Int) -> [[UInt16]] {
        let curve = (0..<256).map { value in bits == 8 ? UInt16(value) : UInt16((value << (bits - 8)) | (value >> (16 - bits))) }
        return [curve, curve, curve]
    }

    static func bayerMosaic(_ rgb: UnsafePointer<UInt8>, size: PixelSize, format: FramePixelFormat, curves: [[UInt16]],
                            stride: Int, into target: UnsafeMutablePointer<UInt8>) {
        let table = curves.flatMap { $0 }
        let pattern = format.bayerPattern!.colorIndices
        table.withUnsafeBufferPointer { curves in
            pattern.withUnsafeBufferPointer { tile in
                pc_mosaic_bayer(rgb, Int32(size.width), Int32(size.height), tile.baseAddress, curves.baseAddress,
                                Int32(format.bitsPerSample == 8 ? 1 : 2), target, stride)
            }
        }
    }
}
