import CHeif

/// libheif, loaded on first use rather than at start-up (see CHeif.h).
enum LibHeif {
    /// Loads libheif, or throws why it cannot be loaded. ``HEIFContext``, where every use of
    /// libheif starts, calls it first.
    static func load() throws(CodecError) {
        try LoadedLibrary.load(pc_heif_load) { .heif(function: "dlopen(libheif.so.1)", message: $0) }
    }
}

/// libheif's functions: `heif.context_alloc()` calls `heif_context_alloc()`.
var heif: pc_heif_functions { LoadedLibrary.functions(pc_heif_load, loadedBy: "HEIFContext") }
