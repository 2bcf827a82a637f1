import CJPEGCoefficients

/// libjpeg's raw-data compressor (`pc_jpeg_raw`): a 4:2:0 JPEG fed a band of rows at a time,
/// the same bytes as `tjCompressFromYUVPlanes` with the same planes and quality.
///
/// What it adds over TurboJPEG's one call: the rows can be produced between bands, so a band
/// converted from the camera's frame is encoded while it is still in cache. One per thread;
/// owns the libjpeg state, released in `deinit`.
final class JPEGRawCompressor {
    private let raw: OpaquePointer

    init() throws(CodecError) {
        guard let raw = pc_jpeg_raw_create() else { throw .libjpeg(function: "jpeg_create_compress", message: "out of memory") }
        self.raw = raw
    }

    deinit { pc_jpeg_raw_destroy(raw) }

    /// Encodes `rows` into `output` (at least TurboJPEG's worst case for their size, `capacity`
    /// bytes) and returns the JPEG's length. Before each band of up to `band` rows (a multiple
    /// of 16) is read, `prepare` is called with its rows, counted from the first of `rows`.
    func compress(_ rows: JPEGEncoder.PlaneRows, quality: Int, into output: UnsafeMutablePointer<UInt8>, capacity: Int,
                  band: Int, prepare: (Range<Int>) throws(CodecError) -> Void) throws(CodecError) -> Int {
        var message = [CChar](repeating: 0, count: 256)
        func check(_ code: Int32, _ function: String) throws(CodecError) {
            guard code == 0 else { throw .libjpeg(function: function, message: String(cMessage: message)) }
        }
        try check(pc_jpeg_raw_start(raw, Int32(rows.width), Int32(rows.height), Int32(quality), output, capacity, &message),
                  "jpeg_start_compress")
        let band = max(16, band & ~15)
        for first in stride(from: 0, to: rows.height, by: band) {
            let count = min(band, rows.height - first)
            try prepare(first..<(first + count))
            try check(pc_jpeg_raw_write(raw, rows.y + first * rows.lumaStride, rows.lumaStride,
                                        rows.cb + first / 2 * rows.chromaStride, rows.cr + first / 2 * rows.chromaStride,
                                        rows.chromaStride, Int32(count), &message), "jpeg_write_raw_data")
        }
        var length = 0
        try check(pc_jpeg_raw_finish(raw, &length, &message), "jpeg_finish_compress")
        return length
    }
}
