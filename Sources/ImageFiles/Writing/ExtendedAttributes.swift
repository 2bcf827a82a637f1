#if canImport(Glibc)
import Glibc
#endif
import CFileAttributes
import Imaging

/// The extended attributes of a file — `user.*`, the POSIX ACL (`system.posix_acl_access`),
/// `security.*`, `trusted.*` — read from the file a rewrite replaces and set on the new one
/// before it takes the name, so the file keeps its identity and its access is never wider.
struct ExtendedAttributes {
    /// The attribute that holds a file's POSIX access ACL; set, it also sets the mode's group
    /// bits (the ACL mask).
    static let accessACL = "system.posix_acl_access"

    /// Names and values, in the order the file system lists them.
    private(set) var attributes: [(name: String, value: [UInt8])] = []

    /// The attributes of the file at `path` (not following a final symbolic link: the caller
    /// resolved it). A file system without extended attributes has none.
    init(ofFileAt path: String) throws(ImageFileError) {
        for name in try Self.names(path) {
            var value: [UInt8] = []
            while true {
                let size = lgetxattr(path, name, nil, 0)
                if size < 0, errno == ENODATA { break }  // removed meanwhile
                guard size >= 0 else { throw Self.failure(path, "lgetxattr", name) }
                value = [UInt8](repeating: 0, count: size)
                let read = value.withUnsafeMutableBytes { lgetxattr(path, name, $0.baseAddress, size) }
                if read >= 0 { value.removeSubrange(read...); break }
                guard errno == ERANGE else { throw Self.failure(path, "lgetxattr", name) }  // grew: ask again
            }
            attributes.append((name, value))
        }
    }

    /// Sets every attribute on the open file `descriptor`, and removes an access ACL the new file
    /// inherited from its folder's default ACL when the original had none. An attribute that
    /// cannot be set ends the rewrite with an error naming it: the original stays as it was.
    func apply(to descriptor: Int32, replacing path: String) throws(ImageFileError) {
        for (name, value) in attributes {
            let result = value.withUnsafeBytes { fsetxattr(descriptor, name, $0.baseAddress, value.count, 0) }
            guard result == 0 else { throw Self.failure(path, "fsetxattr", name) }
        }
        if !attributes.contains(where: { $0.name == Self.accessACL }),
           fremovexattr(descriptor, Self.accessACL) != 0, errno != ENODATA, errno != ENOTSUP {
            throw Self.failure(path, "fremovexattr", Self.accessACL)
        }
    }

    private static func names(_ path: String) throws(ImageFileError) -> [String] {
        while true {
            let size = llistxattr(path, nil, 0)
            if size < 0, errno == ENOTSUP { return [] }
            guard size >= 0 else { throw failure(path, "llistxattr", nil) }
            guard size > 0 else { return [] }
            var list = [CChar](repeating: 0, count: size)
            let read = list.withUnsafeMutableBufferPointer { llistxattr(path, $0.baseAddress, size) }
            if read < 0, errno == ERANGE { continue }  // grew: ask again
            guard read >= 0 else { throw failure(path, "llistxattr", nil) }
            return list[..<read].split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
    }

    private static func failure(_ path: String, _ call: String, _ name: String?) -> ImageFileError {
        ImageFileError(.writeFailed(path: path, call: call, errno: Errno(errno), attribute: name))
    }
}
