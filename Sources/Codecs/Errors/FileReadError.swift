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
    /// A system call failed for another reason.
    case failed(path: String, call: String, reason: String)

    /// One line for people.
    public var description: String {
        switch self {
        case .noSuchFile(let path): return "\(path): no such file"
        case .directory(let path): return "\(path) is a directory, not a file"
        case .notRegularFile(let path, let kind): return "\(path) is \(kind), not a regular file"
        case .empty(let path): return "\(path) is empty (0 bytes)"
        case .permissionDenied(let path): return "\(path): permission denied"
        case .tooLarge(let path, let bytes, let limit): return "\(path) has \(bytes) bytes, more than the \(limit) accepted"
        case .failed(let path, let call, let reason): return "cannot read \(path): \(call) failed: \(reason)"
        }
    }
}
