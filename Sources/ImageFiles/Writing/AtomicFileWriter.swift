#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Writes files so that a reader sees either nothing or the whole file, whenever the process
/// is killed: the bytes go to a nameless file in the target folder (`O_TMPFILE`), flushed with
/// `fsync`, which then gets its name in one step — linked to the name when nothing may be
/// replaced (so an existing file is never clobbered, even by a race), or linked to a hidden
/// name and renamed over the old file. Only where the file system has no `O_TMPFILE` does a
/// named temporary file (`.NAME.XXXXXX`) exist while the bytes are written.
public enum AtomicFileWriter {
    /// Writes `data` to `path`; fails with ``ImageFileError/Code/fileExists(path:)`` when the
    /// file exists and `overwrite` is false. Nothing is left behind on failure.
    public static func write(_ data: Data, to path: String, overwrite: Bool) throws(ImageFileError) {
        try write(contentsOf: data, to: path, overwrite: overwrite)
    }

    /// Writes `bytes` to `path`, as ``write(_:to:overwrite:)-(_,String,_)`` does, from any
    /// contiguous bytes: the codecs' arrays are written without a copy into a `Data`.
    package static func write(contentsOf bytes: some ContiguousBytes, to path: String, overwrite: Bool) throws(ImageFileError) {
        try write(to: path, overwrite: overwrite) { (file) throws(ImageFileError) in try file.write(bytes) }
    }

    /// Writes to `path` what `body` writes into the pending file, as
    /// ``write(_:to:overwrite:)-(_,String,_)`` does: a file too large to hold is written a piece
    /// at a time.
    static func write(to path: String, overwrite: Bool, _ body: (PendingFile) throws(ImageFileError) -> Void) throws(ImageFileError) {
        if !overwrite, access(path, F_OK) == 0 { throw ImageFileError(.fileExists(path: path)) }
        let file = try PendingFile(beside: path)
        defer { file.discard() }
        try body(file)
        // Files are readable like any other the user creates (mkstemp and O_TMPFILE make 0600).
        let mask = umask(0); umask(mask)
        fchmod(file.descriptor, 0o666 & ~mask)
        try file.commit(to: path, replacing: overwrite)
    }

    /// Writes `data` to the `file:` URL `url`, as ``write(_:to:overwrite:)-(_,String,_)`` does.
    public static func write(_ data: Data, to url: URL, overwrite: Bool) throws(ImageFileError) {
        try write(data, to: url.filePath(), overwrite: overwrite)
    }
}
