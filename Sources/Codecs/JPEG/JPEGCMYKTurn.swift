import CJPEGCoefficients
import CTurboJPEG
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// Turns CMYK and YCCK JPEGs (print workflows, Adobe APP14) in their own colour model where the
/// coefficients cannot be turned exactly: decoded to their CMYK samples, turned, and encoded
/// again in the original's colour transform with its components' sampling, by libjpeg
/// (TurboJPEG decodes them only to CMYK and encodes CMYK only as YCCK).
///
/// The result has no APPn segment of its own: the original's — its Adobe APP14, which says
/// how the samples are coded and whether they are inverted, and its ICC profile — describe it
/// as they did the original, so the caller carries them.
package enum JPEGCMYKTurn {
    /// Whether `jpeg` is coded as CMYK or YCCK (four components), the files this type turns.
    package static func isCMYK(_ jpeg: [UInt8]) throws(CodecError) -> Bool {
        let colorspace = try JPEGHandle(decompressing: ()).header(of: jpeg).colorspace
        return colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
    }

    /// `jpeg` (CMYK or YCCK) turned by `orientation` and re-encoded at `quality` (1...100), with
    /// the turned size. Data that stops before the picture does is refused
    /// (``CodecError/truncated(format:bytes:)``) unless `acceptingTruncation`; libjpeg then
    /// fills the rest as decoders show it.
    package static func turned(_ jpeg: [UInt8], by orientation: Orientation, quality: Int,
                               acceptingTruncation: Bool = false) throws(CodecError) -> (jpeg: [UInt8], size: PixelSize) {
        // The samples are held twice, decoded and turned: as much memory as two RGB pictures.
        try PixelBudget.check(JPEGLosslessTransform.geometry(of: jpeg).size, declaredBy: "JPEG")
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>?
        var count = 0
        var width: Int32 = 0, height: Int32 = 0, prematureEnd: Int32 = 0
        let code = jpeg.withUnsafeBufferPointer {
            pc_jpeg_cmyk_turn($0.baseAddress, $0.count, Int32(orientation.exifValue), Int32(quality), &output, &count,
                              &width, &height, &prematureEnd, &message)
        }
        defer { free(output) }
        switch code {
        case Int32(PC_JPEG_CMYK_OK):
            guard let output else { throw .libjpeg(function: "jpeg_finish_compress", message: "no output") }
            if prematureEnd != 0, !acceptingTruncation { throw .truncated(format: "JPEG", bytes: jpeg.count) }
            return (Array(UnsafeBufferPointer(start: output, count: count)), PixelSize(width: Int(width), height: Int(height)))
        case Int32(PC_JPEG_CMYK_UNSUPPORTED):
            throw .unsupportedFormat(reason: String(cMessage: message))
        default:
            throw .libjpeg(function: "jpeg_read_scanlines", message: String(cMessage: message))
        }
    }
}
