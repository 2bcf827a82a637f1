#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file that photocap is asked to open, after checking what the path names, so
/// that a directory, a FIFO or a device (such as /dev/zero, which never ends) is refused with
/// a message that says so instead of blocking or filling memory.
public enum InputFile {
    /// The bytes of the regular file at `path` (symbolic links followed).
    ///
    /// - Parameter maximumBytes: refuse larger files with ``FileReadError/tooLarge(path:bytes:limit:)``
    ///   before reading them.
    public static func read(_ path: String, maximumBytes: Int = .max) throws(FileReadError) -> [UInt8] {
        // stat before open: opening a FIFO for reading would block until a writer came.
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure(path, "stat") }
        try checkRegular(status, path)
        // O_NONBLOCK: should the path be swapped for a FIFO since stat, open still returns.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "open") }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw failure(path, "fstat") }
        try checkRegular(status, path)
        let size = Int(status.st_size)
        guard size > 0 else { throw .empty(path: path) }
        guard size <= maximumBytes else { throw .tooLarge(path: path, bytes: size, limit: maximumBytes) }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + offset, size - offset) }
            if count < 0 { if errno == EINTR { continue }; throw failure(path, "read") }
            if count == 0 { break }  // the file shrank while being read: keep what was there
            offset += count
        }
        if offset < size { bytes.removeSubrange(offset...) }
        guard !bytes.isEmpty else { throw .empty(path: path) }
        return bytes
    }

    private static func checkRegular(_ status: stat, _ path: String) throws(FileReadError) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .directory(path: path)
        case S_IFIFO: throw .notRegularFile(path: path, kind: "a FIFO (named pipe)")
        case S_IFCHR: throw .notRegularFile(path: path, kind: "a character device")
        case S_IFBLK: throw .notRegularFile(path: path, kind: "a block device")
        case S_IFSOCK: throw .notRegularFile(path: path, kind: "a socket")
        default: throw .notRegularFile(path: path, kind: "a special file")
        }
    }

    private static func failure(_ path: String, _ call: String) -> FileReadError {
        switch errno {
        case ENOENT, ENOTDIR: return .noSuchFile(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        case EISDIR: return .directory(path: path)
        default: return .failed(path: path, call: call, reason: String(cString: strerror(errno)))
        }
    }
}
