import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What `shoot` learns of the file system while it names its photos, each thing asked once:
/// `--count N` into a folder checked some four paths a photo before the first one, which a slow
/// or network file system makes minutes. A folder's names are read in one pass; one instance
/// serves the requests of one run, in order.
final class DestinationChecks {
    private var kinds: [String: (exists: Bool, isDirectory: Bool)] = [:]
    private var accessErrors: [String: Int32] = [:]
    /// Each folder's entries; nil for a folder that cannot be listed (then each path is asked).
    private var names: [String: Set<String>?] = [:]

    init() {}

    /// Whether `path` exists and is a directory (symbolic links followed).
    func kind(of path: String) -> (exists: Bool, isDirectory: Bool) {
        if let known = kinds[path] { return known }
        var isDirectory = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        kinds[path] = (exists, isDirectory)
        return (exists, isDirectory)
    }

    /// Records that `folder` was just made.
    func made(_ folder: String) {
        kinds[folder] = (true, true)
        names[folder] = []
    }

    /// 0 when `folder` is writable, else access(2)'s errno.
    func writeAccessError(_ folder: String) -> Int32 {
        if let known = accessErrors[folder] { return known }
        let error = access(folder, W_OK) == 0 ? 0 : errno
        accessErrors[folder] = error
        return error
    }

    /// Whether an entry named as `path`'s last component is in its folder (a dangling link
    /// counts: writing there would replace it).
    func exists(_ path: String) -> Bool {
        let url = URL(filePath: path, directoryHint: .notDirectory)
        let folder = url.deletingLastPathComponent().path
        if names[folder] == nil {
            names[folder] = (try? FileManager.default.contentsOfDirectory(atPath: folder)).map(Set.init)
        }
        guard let listed = names[folder] ?? nil else { return FileManager.default.fileExists(atPath: path) }
        return listed.contains(url.lastPathComponent)
    }
}
