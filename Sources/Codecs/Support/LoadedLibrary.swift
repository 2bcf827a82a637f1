import Imaging

/// A seam's `pc_*_load`: the library's functions, loading it the first time, or nil with the
/// reason it cannot be loaded written to the buffer given.
typealias LibraryLoad<Functions> = (UnsafeMutablePointer<CChar>?, Int) -> UnsafePointer<Functions>?

/// The C libraries the codecs load on first use instead of linking them (see
/// CLibraryLoading.h): libheif, libtiff and LibRaw. Each has one type where its every use
/// starts, which loads it (or throws); the functions are reached after that.
enum LoadedLibrary {
    /// Loads the library, or throws `failure` of the reason it cannot be loaded.
    static func load<Loaded>(_ load: (UnsafeMutablePointer<CChar>?, Int) -> Loaded?, failure: (String) -> CodecError) throws(CodecError) {
        var reason = [CChar](repeating: 0, count: 256)
        guard load(&reason, reason.count) != nil else { throw failure(String(cMessage: reason)) }
    }

    /// The functions of a library that `user`, which every use goes through, has loaded.
    static func functions<Functions>(_ load: LibraryLoad<Functions>, loadedBy user: String) -> Functions {
        guard let functions = load(nil, 0) else { preconditionFailure("a library used before \(user) loaded it") }
        return functions.pointee
    }
}
