import Imaging

/// Why a file could not be read, said for what the path names: a missing file, a folder, a
/// device or pipe, an empty file, a permission problem.
public enum FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing exists at the path.
    case noSuchFile(path: String)
    /// The path names a directory.
    case directory(path: String)
    /// The path names something other than a regular file: `kind` is "a FIFO", "a character
    /// device" (such as /dev/zero), "a block device" or "a socket".
    case notRegularFile(path: String, kind: String)
    /// The file has no bytes.
    case empty(path: String)
    /// The user may not read the file.
    case permissionDenied(path: String)
    /// The file is larger than the caller accepts.
    case tooLarge(path: String, bytes: Int, limit: Int)
    /// The file was shorter when read than when its size was taken: `read` of `expected` bytes.
    case shrank(path: String, expected: Int, read: Int)
    /// The system call `call` ("stat", "open", "fstat", "read") failed with `errno`, for a
    /// reason other than those above.
    case failed(path: String, call: String, errno: Errno)

    /// One line for people: `cannot read PATH: REASON`.
    public var description: String { "cannot read \(path): \(reason)" }

    /// The path that could not be read.
    public var path: String {
        switch self {
        case .noSuchFile(let path), .directory(let path), .notRegularFile(let path, _), .empty(let path),
             .permissionDenied(let path), .tooLarge(let path, _, _), .shrank(let path, _, _),
             .failed(let path, _, _):
            return path
        }
    }

    /// What is wrong, without the path: "it is a directory, not a file".
    public var reason: String {
        switch self {
        case .noSuchFile: return "no such file"
        case .directory: return "it is a directory, not a file"
        case .notRegularFile(_, let kind): return "it is \(kind), not a regular file"
        case .empty: return "the file is empty (0 bytes)"
        case .permissionDenied: return "permission denied"
        case .tooLarge(_, let bytes, let limit): return "it has \(bytes) bytes, more than the \(limit) accepted"
        case .shrank(_, let expected, let read): return "the file shrank while it was read (\(read) of \(expected) bytes)"
        case .failed(_, let call, let errno): return "\(call) failed: \(errno.message)"
        }
    }
}
