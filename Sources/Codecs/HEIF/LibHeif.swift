import CHeif
import Imaging

/// libheif, loaded on first use rather than at start-up (see CHeif.h).
enum LibHeif {
    /// Loads libheif, or throws why it cannot be loaded. ``HEIFContext``, where every use of
    /// libheif starts, calls it first.
    static func load() throws(CodecError) {
        var reason = [CChar](repeating: 0, count: 256)
        guard pc_heif_load(&reason, reason.count) != nil else {
            throw .heif(function: "dlopen(libheif.so.1)", message: String(cMessage: reason))
        }
    }
}

/// libheif's functions: `heif.context_alloc()` calls `heif_context_alloc()`. Only reached
/// through a ``HEIFContext``, which loaded the library (or threw).
var heif: pc_heif_functions {
    guard let functions = pc_heif_load(nil, 0) else { preconditionFailure("libheif used before HEIFContext loaded it") }
    return functions.pointee
}
