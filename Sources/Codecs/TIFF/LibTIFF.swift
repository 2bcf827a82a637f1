import CTIFF

/// libtiff, loaded on first use rather than at start-up (see CTIFF.h).
enum LibTIFF {
    /// Loads libtiff, or throws why it cannot be loaded. ``TIFFStream``, where every use
    /// of libtiff starts, calls it first.
    static func load() throws(CodecError) {
        try LoadedLibrary.load(pc_tiff_load) { .tiff(function: "dlopen(libtiff.so.6)", message: $0) }
    }
}

/// libtiff's functions: `libtiff.WriteDirectory(tiff)` calls `TIFFWriteDirectory(tiff)`.
var libtiff: pc_tiff_functions { LoadedLibrary.functions(pc_tiff_load, loadedBy: "TIFFStream") }
