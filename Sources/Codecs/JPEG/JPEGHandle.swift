import CTurboJPEG

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

    /// The error for a failed call of `function` on this handle.
    func error(_ function: String) -> CodecError {
        .turboJPEG(function: function, message: String(cString: tjGetErrorStr2(handle)))
    }
}
