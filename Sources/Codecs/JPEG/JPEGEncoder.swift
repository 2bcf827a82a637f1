import CTurboJPEG
import Imaging

/// Encodes planar images as baseline JFIF JPEG with TurboJPEG.
///
/// Owns a TurboJPEG compressor: use one encoder per thread; it can be reused for any number of
/// images.
package final class JPEGEncoder {
    private let compressor: JPEGHandle
    // Kept between encodes: a fresh worst-case buffer per photo costs a page fault for every
    // page the JPEG touches, which at 12 MP is a sizeable fraction of the encode itself.
    // Ours, not tjAlloc's: TJFLAG_NOREALLOC never lets TurboJPEG free or grow it.
    private var buffer: UnsafeMutableRawBufferPointer?

    deinit { buffer.map(LargeAllocation.deallocate) }

    /// Bytes of the output buffer in memory: about the largest JPEG encoded so far, however
    /// large TurboJPEG's worst case for its size.
    package var residentOutputBytes: Int {
        buffer.map { LargeAllocation.residentBytes(of: UnsafeRawBufferPointer($0)) } ?? 0
    }

    /// The reusable output buffer, grown to at least `capacity` bytes (TurboJPEG's worst case,
    /// so it never reallocates). A JPEG fills a small part of it: its pages are backed as they
    /// are written.
    private func outputBuffer(capacity: Int) -> UnsafeMutablePointer<UInt8> {
        if let buffer, buffer.count >= capacity { return buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) }
        buffer.map(LargeAllocation.deallocate)
        let fresh = LargeAllocation.allocate(byteCount: capacity, writtenInFull: false)
        buffer = fresh
        return fresh.baseAddress!.assumingMemoryBound(to: UInt8.self)
    }

    /// Creates an encoder.
    package init() throws(CodecError) {
        compressor = try JPEGHandle(compressing: ())
    }

    /// Encodes `image` as a 4:2:0 JPEG straight from its planes (`tjCompressFromYUVPlanes`):
    /// JFIF, no EXIF. `quality` is 1...100.
    package func encode(_ image: PlanarImage, quality: Int) throws(CodecError) -> [UInt8] {
        let jpeg = try compress(PlaneRows(rows: 0..<image.size.height, of: image), quality: quality)
        return Array(jpeg)
    }

    /// Encodes packed RGB `image` with TurboJPEG at the chroma subsampling `subsampling`
    /// (`TJSAMP_*`, as ``JPEGDecoder/subsampling(named:)`` gives a file's): JFIF, no EXIF. For a
    /// picture re-encoded in its file's own sampling, which the planes (4:2:0) cannot keep.
    package func encode(_ image: RGBImage, quality: Int, subsampling: Int32) throws(CodecError) -> [UInt8] {
        let (buffer, capacity) = try output(width: image.size.width, height: image.size.height, quality: quality, subsampling: subsampling)
        var output: UnsafeMutablePointer<UInt8>? = buffer
        var outputSize = UInt(capacity)
        let code = image.pixels.withUnsafeBufferPointer {
            tjCompress2(compressor.handle, $0.baseAddress, Int32(image.size.width), Int32(image.size.width * 3), Int32(image.size.height),
                        Int32(TJPF_RGB.rawValue), &output, &outputSize, subsampling, Int32(quality), TJFLAG_NOREALLOC)
        }
        guard code == 0, let output else { throw compressor.error("tjCompress2") }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }

    /// Encoders for the strips after the first of ``encodeInStrips(_:quality:strips:)``, kept
    /// between photos like the output buffer.
    var stripEncoders: [JPEGEncoder] = []

    /// Rows of 4:2:0 planes: a whole image or one strip of it.
    struct PlaneRows {
        let y, cb, cr: UnsafeMutablePointer<UInt8>
        let lumaStride, chromaStride, width, height: Int
    }

    /// Encodes `rows` into the reusable buffer and returns the JPEG in it, valid until the next
    /// encode with this encoder.
    func compress(_ rows: PlaneRows, quality: Int) throws(CodecError) -> UnsafeBufferPointer<UInt8> {
        // TurboJPEG reads the luma of an odd side to an even size, one sample past what a
        // planar image holds (never written: a file then differed from run to run); the raw
        // compressor repeats the edge sample there instead, as libjpeg pads an RGB picture.
        if rows.width % 2 == 1 || rows.height % 2 == 1 {
            return try compress(width: rows.width, height: rows.height, quality: quality, band: rows.height) { band in
                rows.dropping(band.lowerBound)
            }
        }
        let (buffer, capacity) = try output(width: rows.width, height: rows.height, quality: quality)
        let width = Int32(rows.width), height = Int32(rows.height)
        var output: UnsafeMutablePointer<UInt8>? = buffer
        var outputSize = UInt(capacity)
        var sources: [UnsafePointer<UInt8>?] = [UnsafePointer(rows.y), UnsafePointer(rows.cb), UnsafePointer(rows.cr)]
        let strides: [Int32] = [Int32(rows.lumaStride), Int32(rows.chromaStride), Int32(rows.chromaStride)]
        let code = tjCompressFromYUVPlanes(compressor.handle, &sources, width, strides, height, Int32(TJSAMP_420.rawValue),
                                           &output, &outputSize, Int32(quality), TJFLAG_NOREALLOC)
        guard code == 0, let output else { throw compressor.error("tjCompressFromYUVPlanes") }
        return UnsafeBufferPointer(start: output, count: Int(outputSize))
    }

    /// The raw-data compressor of ``compress(width:height:quality:band:rows:)``, made on first use.
    private var rawCompressor: JPEGRawCompressor?

    /// Encodes a `width` x `height` image like ``compress(_:quality:)`` — the same bytes for the
    /// same rows — but a band of up to `band` rows at a time: `rows` is called with each band's
    /// rows just before they are read and gives where they are, so they may be written there
    /// (converted from a frame) while they are in cache for the encode.
    func compress(width: Int, height: Int, quality: Int, band: Int,
                  rows: (Range<Int>) throws(CodecError) -> PlaneRows) throws(CodecError) -> UnsafeBufferPointer<UInt8> {
        let (output, capacity) = try output(width: width, height: height, quality: quality)
        if rawCompressor == nil { rawCompressor = try JPEGRawCompressor() }
        let raw = rawCompressor!
        let length = try raw.compress(width: width, height: height, quality: quality, into: output, capacity: capacity,
                                      band: band, rows: rows)
        return UnsafeBufferPointer(start: output, count: length)
    }

    /// The reusable output buffer, grown to TurboJPEG's worst case for a `width` x `height`
    /// image (its capacity returned with it), once `quality` is known to be valid: what both
    /// encodes write into.
    private func output(width: Int, height: Int, quality: Int,
                        subsampling: Int32 = Int32(TJSAMP_420.rawValue)) throws(CodecError) -> (buffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        guard (1...100).contains(quality) else { throw .invalidArgument("JPEG quality \(quality) is not in 1...100") }
        let size = tjBufSize(Int32(width), Int32(height), subsampling)
        guard size != UInt(bitPattern: -1) else { throw compressor.error("tjBufSize") }
        return (outputBuffer(capacity: Int(size)), Int(size))
    }
}

extension JPEGEncoder.PlaneRows {
    /// These rows from row `count` (even) on.
    func dropping(_ count: Int) -> Self {
        Self(y: y + count * lumaStride, cb: cb + count / 2 * chromaStride, cr: cr + count / 2 * chromaStride,
             lumaStride: lumaStride, chromaStride: chromaStride, width: width, height: height - count)
    }

    /// Rows `rows` of `image`, whose first row is row `firstRow` of the whole (even): the
    /// image itself (0) or a band buffer.
    init(rows: Range<Int>, of image: PlanarImage, firstRow: Int = 0) {
        let planes = image.planes, row = rows.lowerBound - firstRow
        self.init(y: planes.y + row * image.lumaStride, cb: planes.cb + row / 2 * image.chromaStride,
                  cr: planes.cr + row / 2 * image.chromaStride, lumaStride: image.lumaStride,
                  chromaStride: image.chromaStride, width: image.size.width, height: rows.count)
    }
}
