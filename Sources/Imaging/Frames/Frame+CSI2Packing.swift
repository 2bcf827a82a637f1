import CImagingKernels

extension Frame {
    /// A CSI-2 packed Bayer frame unpacked to its ``FramePixelFormat/unpacked`` format (one
    /// sample per 16-bit little-endian word, rows without padding), value for value; any other
    /// frame as it is. Done once, before anything reads the samples, so the DNG writer, the
    /// previews and the conversion pass handle packed frames as they handle `RG10` or `RG12`.
    package func unpackedCSI2() throws(ImagingError) -> Frame {
        guard format.isCSI2Packed else { return self }
        return try rowByRow(as: format.unpacked, bits: format.bitsPerSample, pc_unpack_csi2_row)
    }

    /// This unpacked Bayer frame packed as `packed`, a CSI-2 packed format with the same pattern
    /// and bits (as a MIPI sensor would deliver it); rows without padding.
    package func packedCSI2(as packed: FramePixelFormat) throws(ImagingError) -> Frame {
        guard packed.isCSI2Packed, packed.unpacked == format else { throw .notBayer(packed) }
        return try rowByRow(as: packed, bits: packed.bitsPerSample, pc_pack_csi2_row)
    }

    /// This frame's rows, each rewritten by `kernel` (source row, width, bits, target row) into
    /// a new frame of `target` without row padding.
    private func rowByRow(as target: FramePixelFormat, bits: Int,
                          _ kernel: (UnsafePointer<UInt8>, Int32, Int32, UnsafeMutablePointer<UInt8>) -> Void) throws(ImagingError) -> Frame {
        let stride = target.minimumBytesPerRow(width: size.width)
        let count = try target.frameByteCount(size: size, bytesPerRow: stride)
        let storage = FrameStorage(count: count) { buffer in
            self.storage.withUnsafeBytes { source in
                let base = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for row in 0..<size.height {
                    kernel(base + row * bytesPerRow, Int32(size.width), Int32(bits), out + row * stride)
                }
            }
        }
        return try Frame(format: target, size: size, bytesPerRow: stride, storage: storage, sequence: sequence,
                         timestampNanoseconds: timestampNanoseconds)
    }
}
