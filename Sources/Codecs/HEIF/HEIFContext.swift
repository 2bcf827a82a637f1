import CHeif

/// An owned libheif context, freed with the object; the base of every libheif call.
final class HEIFContext {
    let context: OpaquePointer

    /// An empty context, to encode into.
    init() throws(CodecError) {
        try LibHeif.load()
        guard let context = heif.context_alloc() else {
            throw .heif(function: "heif_context_alloc", message: "out of memory")
        }
        self.context = context
    }

    deinit { heif.context_free(context) }

    /// Throws when `error` is not `heif_error_Ok`.
    static func check(_ error: heif_error, _ function: String) throws(CodecError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)/\(error.subcode.rawValue)"
        throw .heif(function: function, message: message)
    }

    /// Parses `data` in a fresh context and hands the context and primary image handle to
    /// `body`; `data` stays alive (libheif reads it without copying) until `body` returns.
    static func withPrimaryImage<Result>(
        of data: [UInt8], _ body: (HEIFContext, HEIFImageHandle) throws(CodecError) -> Result
    ) throws(CodecError) -> Result {
        let file = try HEIFContext()
        // Array.withUnsafeBytes only rethrows untyped errors: carry the typed one in a Result.
        let outcome = data.withUnsafeBytes { bytes in
            Swift.Result { () throws(CodecError) -> Result in
                try check(heif.context_read_from_memory_without_copy(file.context, bytes.baseAddress, bytes.count, nil),
                          "heif_context_read_from_memory_without_copy")
                try HEIFItemReference.refuseDerivationCycles(in: data)
                var handle: OpaquePointer?
                try check(heif.context_get_primary_image_handle(file.context, &handle), "heif_context_get_primary_image_handle")
                guard let handle else { throw .heif(function: "heif_context_get_primary_image_handle", message: "no handle") }
                return try body(file, HEIFImageHandle(handle))
            }
        }
        return try outcome.get()
    }
}
