import CTurboJPEG
import Imaging

/// An owned TurboJPEG instance (compressor or decompressor), destroyed with the object.
final class JPEGHandle {
    let handle: tjhandle

    /// Creates a compressor.
    convenience init(compressing: Void) throws(CodecError) { try self.init(compressing: true) }

    /// Creates a decompressor.
    convenience init(decompressing: Void) throws(CodecError) { try self.init(compressing: false) }

    private init(compressing: Bool) throws(CodecError) {
        let function = compressing ? "tjInitCompress" : "tjInitDecompress"
        guard let handle = compressing ? tjInitCompress() : tjInitDecompress() else {
            throw .turboJPEG(function: function, message: String(cString: tjGetErrorStr2(nil)))
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// What a JPEG's header says: its stored size, chroma subsampling (`TJSAMP_*`) and colour
    /// space (`TJCS_*`).
    struct Header {
        let size: PixelSize
        let subsampling: Int32
        let colorspace: Int32
    }

    /// Reads `jpeg`'s header with this decompressor. A method, so that the handle is alive for
    /// the whole C call (a caller reading `handle` keeps nothing alive after that read).
    func header(of jpeg: [UInt8]) throws(CodecError) -> Header {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let code = jpeg.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        guard code == 0 else { throw error("tjDecompressHeader3") }
        return Header(size: PixelSize(width: Int(width), height: Int(height)), subsampling: subsampling, colorspace: colorspace)
    }

    /// The error for a failed call of `function` on this handle.
    func error(_ function: String) -> CodecError {
        .turboJPEG(function: function, message: String(cString: tjGetErrorStr2(handle)))
    }
}
