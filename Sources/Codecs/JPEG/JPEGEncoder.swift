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
    private var buffer: UnsafeMutablePointer<UInt8>?
    private var bufferCapacity = 0

    deinit { tjFree(buffer) }

    /// The reusable output buffer, grown to at least `capacity` bytes (TurboJPEG's worst case,
    /// so it never reallocates).
    private func outputBuffer(capacity: Int) throws(CodecError) -> UnsafeMutablePointer<UInt8> {
        if let buffer, bufferCapacity >= capacity { return buffer }
        tjFree(buffer)
        buffer = nil
        bufferCapacity = 0
        guard let fresh = tjAlloc(Int32(clamping: capacity)) else { throw compressor.error("tjAlloc") }
        buffer = fresh
        bufferCapacity = capacity
        return fresh
    }

    /// Creates an encoder.
    package init() throws(CodecError) {
        compressor = try JPEGHandle(compressing: ())
    }

    /// Encodes `image` as a 4:2:0 JPEG straight from its planes (`tjCompressFromYUVPlanes`):
    /// JFIF, no EXIF. `quality` is 1...100.
    package func encode(_ image: PlanarImage, quality: Int) throws(CodecError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .invalidArgument("JPEG quality \(quality) is not in 1...100") }
        let width = Int32(image.size.width), height = Int32(image.size.height)
        let size = tjBufSize(width, height, Int32(TJSAMP_420.rawValue))
        guard size != UInt(bitPattern: -1) else { throw compressor.error("tjBufSize") }
        var output: UnsafeMutablePointer<UInt8>? = try outputBuffer(capacity: Int(size))
        var outputSize = size
        let planes = image.planes
        var sources: [UnsafePointer<UInt8>?] = [UnsafePointer(planes.y), UnsafePointer(planes.cb), UnsafePointer(planes.cr)]
        let strides: [Int32] = [Int32(image.lumaStride), Int32(image.chromaStride), Int32(image.chromaStride)]
        let code = tjCompressFromYUVPlanes(compressor.handle, &sources, width, strides, height, Int32(TJSAMP_420.rawValue),
                                           &output, &outputSize, Int32(quality), TJFLAG_NOREALLOC)
        guard code == 0, let output else { throw compressor.error("tjCompressFromYUVPlanes") }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }
}
