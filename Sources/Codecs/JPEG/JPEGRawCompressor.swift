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

    /// The rows a band holds when `band` are asked for: whole MCU rows, at least one.
    static func rows(inBand band: Int) -> Int { max(16, band & ~15) }

    /// Encodes a `width` x `height` image into `output` (at least TurboJPEG's worst case for
    /// its size, `capacity` bytes) and returns the JPEG's length. A band of up to `band` rows
    /// (a multiple of 16) at a time: `rows` is called with each band's rows, just before they
    /// are read, and gives where they are (its first row is the band's first).
    func compress(width: Int, height: Int, quality: Int, into output: UnsafeMutablePointer<UInt8>, capacity: Int,
                  band: Int, rows: (Range<Int>) throws(CodecError) -> JPEGEncoder.PlaneRows) throws(CodecError) -> Int {
        var message = [CChar](repeating: 0, count: 256)
        func check(_ code: Int32, _ function: String) throws(CodecError) {
            guard code == 0 else { throw .libjpeg(function: function, message: String(cMessage: message)) }
        }
        try check(pc_jpeg_raw_start(raw, Int32(width), Int32(height), Int32(quality), output, capacity, &message),
                  "jpeg_start_compress")
        let band = Self.rows(inBand: band)
        for first in stride(from: 0, to: height, by: band) {
            let count = min(band, height - first)
            let planes = try rows(first..<(first + count))
            try check(pc_jpeg_raw_write(raw, planes.y, planes.lumaStride, planes.cb, planes.cr, planes.chromaStride,
                                        Int32(count), &message), "jpeg_write_raw_data")
        }
        var length = 0
        try check(pc_jpeg_raw_finish(raw, &length, &message), "jpeg_finish_compress")
        return length
    }
}
