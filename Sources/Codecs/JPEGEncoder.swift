import CTurboJPEG
import Imaging

/// Encodes planar images as baseline JFIF JPEG with TurboJPEG.
///
/// Owns a TurboJPEG compressor: use one encoder per thread; it can be reused for any number of
/// images.
public final class JPEGEncoder {
    private let compressor: JPEGHandle

    /// Creates an encoder.
    public init() throws(CodecError) {
        compressor = try JPEGHandle(compressing: ())
    }

    /// Encodes `image` as a 4:2:0 JPEG straight from its planes (`tjCompressFromYUVPlanes`):
    /// JFIF, no EXIF. `quality` is 1...100.
    public func encode(_ image: PlanarImage, quality: Int) throws(CodecError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .invalidArgument("JPEG quality \(quality) is not in 1...100") }
        let width = Int32(image.size.width), height = Int32(image.size.height)
        let size = tjBufSize(width, height, Int32(TJSAMP_420.rawValue))
        guard size != UInt(bitPattern: -1), let buffer = tjAlloc(Int32(clamping: size)) else {
            throw compressor.error("tjBufSize")
        }
        // Allocated at the worst-case size once, so TurboJPEG never reallocates it.
        var output: UnsafeMutablePointer<UInt8>? = buffer
        defer { tjFree(output) }
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
