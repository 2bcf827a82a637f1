import CRaw

/// LibRaw, loaded on first use rather than at start-up (see CRaw.h).
enum LibRaw {
    /// Loads LibRaw, or throws why it cannot be loaded. ``RAWDeveloper``, where every use of
    /// LibRaw starts, calls it first.
    static func load() throws(CodecError) {
        try LoadedLibrary.load(pc_raw_load) { .libRaw(function: "dlopen(libraw_r)", message: $0) }
    }
}
