import CImagingKernels

extension Frame {
    /// A Bayer frame binned by `factor`: each 2×2 tile is the mean of the same sites of a
    /// `factor`×`factor` block of this frame's tiles (edge blocks average the tiles they have),
    /// in the same format, so a small preview can be developed like the whole frame.
    ///
    /// The result is 2·⌈width/2/factor⌉ × 2·⌈height/2/factor⌉ pixels.
    package func binnedBayer(by factor: Int) throws(ImagingError) -> Frame {
        // CSI-2 packed frames are unpacked first (unpackedCSI2()).
        guard format.isBayer, !format.isCSI2Packed else { throw .notBayer(format) }
        guard factor >= 1, size.width % 2 == 0, size.height % 2 == 0 else { throw .invalidSize(size) }
        let tiles = PixelSize(width: (size.width / 2 + factor - 1) / factor, height: (size.height / 2 + factor - 1) / factor)
        let binned = PixelSize(width: tiles.width * 2, height: tiles.height * 2)
        let stride = format.minimumBytesPerRow(width: binned.width)
        let bytesPerSample = format.bitsPerSample == 8 ? 1 : 2
        let storage = FrameStorage(count: stride * binned.height) { target in
            self.storage.withUnsafeBytes { source in
                pc_bin_bayer(source.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow, Int32(size.width),
                             Int32(size.height), Int32(bytesPerSample), Int32(factor),
                             target.baseAddress!.assumingMemoryBound(to: UInt8.self), stride)
            }
        }
        return try Frame(format: format, size: binned, bytesPerRow: stride, storage: storage, sequence: sequence,
                         timestampNanoseconds: timestampNanoseconds)
    }
}
