extension Frame {
    /// A Bayer frame at least `minimum` large (each side rounded up to even), this frame in its
    /// top-left corner and the rest filled by repeating its last row and column of 2×2 tiles, so
    /// the colour pattern continues. For developers that refuse small images (LibRaw wants 22
    /// pixels a side); the result is cropped back to this frame's part afterwards. A CSI-2 packed
    /// frame comes back unpacked (``FramePixelFormat/unpacked``).
    public func paddedBayer(toAtLeast minimum: PixelSize) throws(ImagingError) -> Frame {
        guard format.isBayer else { throw .notBayer(format) }
        if format.isCSI2Packed { return try unpackedCSI2().paddedBayer(toAtLeast: minimum) }
        guard size.width >= 2, size.height >= 2, size.width % 2 == 0, size.height % 2 == 0 else { throw .invalidSize(size) }
        let padded = PixelSize(width: max(size.width, (minimum.width + 1) / 2 * 2),
                               height: max(size.height, (minimum.height + 1) / 2 * 2))
        guard padded != size else { return self }
        let bytesPerSample = format.bitsPerSample == 8 ? 1 : 2
        let stride = padded.width * bytesPerSample
        // A padded site repeats the same site of the last tile: same parity, so the same colour.
        func source(_ index: Int, _ limit: Int) -> Int { index < limit ? index : limit - 2 + index % 2 }
        let storage = FrameStorage(count: stride * padded.height) { target in
            self.storage.withUnsafeBytes { bytes in
                for row in 0..<padded.height {
                    let sourceRow = bytes.baseAddress! + source(row, size.height) * bytesPerRow
                    let targetRow = target.baseAddress! + row * stride
                    for column in 0..<padded.width {
                        let from = source(column, size.width) * bytesPerSample
                        for byte in 0..<bytesPerSample {
                            targetRow.storeBytes(of: sourceRow.load(fromByteOffset: from + byte, as: UInt8.self),
                                                 toByteOffset: column * bytesPerSample + byte, as: UInt8.self)
                        }
                    }
                }
            }
        }
        return try Frame(format: format, size: padded, bytesPerRow: stride, storage: storage, sequence: sequence,
                         timestampNanoseconds: timestampNanoseconds)
    }
}
