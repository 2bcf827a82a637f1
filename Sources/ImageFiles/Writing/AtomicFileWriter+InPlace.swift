#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

extension AtomicFileWriter {
    /// Replaces the file at `path` with `data`, atomically, keeping what was the user's:
    ///
    /// - a symbolic link is followed and its target replaced (the link stays a link);
    /// - the permission bits, owner and group are kept (owner and group where the process may set
    ///   them: root always, others the group when they belong to it);
    /// - the extended attributes are kept — `user.*`, the POSIX ACL, `security.*` — so access is
    ///   never wider afterwards; one that cannot be set (a `security.*` label the process may
    ///   not set) is refused by name and the file left as it is;
    /// - the modification time is kept when `keepingModificationTime` is true;
    /// - a file with more than one hard link is refused with
    ///   ``ImageFileError/Code/hardLinked(path:links:)`` and left as it is: replacing it would
    ///   detach it from its other names, and rewriting the shared inode in place could be
    ///   interrupted half-way;
    /// - killed at any instant, the process leaves the original or the complete result, never a
    ///   partial file (see ``AtomicFileWriter``).
    public static func replace(_ path: String, with data: Data, keepingModificationTime: Bool = false) throws(ImageFileError) {
        try replace(path, withContentsOf: data, keepingModificationTime: keepingModificationTime)
    }

    /// Replaces the file at `path` with `bytes`, as
    /// ``replace(_:with:keepingModificationTime:)-(String,_,_)`` does, from any contiguous bytes.
    package static func replace(_ path: String, withContentsOf bytes: some ContiguousBytes,
                                keepingModificationTime: Bool = false) throws(ImageFileError) {
        try replace(path, keepingModificationTime: keepingModificationTime) { (file) throws(ImageFileError) in try file.write(bytes) }
    }

    /// Replaces the file at `path` with what `body` writes into the pending file, as
    /// ``replace(_:with:keepingModificationTime:)-(String,_,_)`` does.
    static func replace(_ path: String, keepingModificationTime: Bool,
                        _ body: (PendingFile) throws(ImageFileError) -> Void) throws(ImageFileError) {
        guard let resolved = realpath(path, nil) else { throw PendingFile.failure(path, "realpath") }
        let target = String(cString: resolved)
        free(resolved)
        var original = stat()
        guard stat(target, &original) == 0 else { throw PendingFile.failure(path, "stat") }
        guard original.st_mode & S_IFMT == S_IFREG else {
            throw ImageFileError(.notARegularFile(path: path))
        }
        guard original.st_nlink <= 1 else { throw ImageFileError(.hardLinked(path: path, links: Int(original.st_nlink))) }

        let attributes = try ExtendedAttributes(ofFileAt: target)

        let file = try PendingFile(beside: target)
        defer { file.discard() }
        try body(file)
        // Owner first: chown clears the set-user/group-ID bits that fchmod then restores.
        if fchown(file.descriptor, original.st_uid, original.st_gid) != 0 {
            _ = fchown(file.descriptor, uid_t.max, original.st_gid)  // uid_t.max is -1: the group alone
        }
        guard fchmod(file.descriptor, original.st_mode & 0o7777) == 0 else { throw PendingFile.failure(path, "fchmod") }
        // After the mode: an access ACL sets the group bits to its mask, as the original had them.
        try attributes.apply(to: file.descriptor, replacing: path)
        if keepingModificationTime {
            let times = [original.st_atim, original.st_mtim]
            guard futimens(file.descriptor, times) == 0 else { throw PendingFile.failure(path, "futimens") }
        }
        try file.commit(to: target, replacing: true)
    }

    /// Replaces the file at the `file:` URL `url` with `data`, as
    /// ``replace(_:with:keepingModificationTime:)-(String,_,_)`` does.
    public static func replace(_ url: URL, with data: Data, keepingModificationTime: Bool = false) throws(ImageFileError) {
        try replace(url.filePath(), with: data, keepingModificationTime: keepingModificationTime)
    }
}
