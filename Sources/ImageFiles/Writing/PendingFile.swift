#if canImport(Glibc)
import Glibc
#endif
import CFileAttributes
import Codecs
import Dispatch
import Imaging
import FoundationEssentials
import Synchronization

/// A file being written in a folder: nameless (`O_TMPFILE`) where the file system allows it,
/// else a hidden temporary name that ``discard()`` removes.
struct PendingFile {
    let descriptor: Int32
    /// The temporary name, when the file has one.
    let temporaryPath: String?
    private let folder: String
    private let target: String

    /// Opens a new, empty file in the folder of `path`; `readable` opens it for reading too
    /// (a scratch file read back, never committed).
    init(beside path: String, readable: Bool = false) throws(ImageFileError) {
        let url = URL(fileURLWithPath: path)
        target = path
        folder = url.deletingLastPathComponent().path
        // O_TMPFILE (with O_DIRECTORY, as the kernel defines it) is not imported as a constant.
        let nameless = open(folder, (readable ? O_RDWR : O_WRONLY) | O_CLOEXEC | O_DIRECTORY | 0o20000000, 0o600)
        if nameless >= 0 {
            descriptor = nameless
            temporaryPath = nil
            return
        }
        var template = Array("\(folder)/.\(url.lastPathComponent).XXXXXX".utf8CString)
        let named = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard named >= 0 else { throw Self.failure(path, "mkstemp") }
        descriptor = named
        // Read inside the closure: the array's storage is valid only there.
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    static func failure(_ path: String, _ call: String) -> ImageFileError {
        ImageFileError(.writeFailed(path: path, call: call, errno: Errno(errno)))
    }

    /// Writes all of `data`.
    func write(_ data: some ContiguousBytes) throws(ImageFileError) {
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 { if errno == EINTR { continue }; return false }
                offset += count
            }
            return true
        }
        guard written else { throw Self.failure(target, "write") }
    }

    /// Appends bytes `range` of the file `source` (the kernel copies them, sharing blocks
    /// where the file system can).
    func copy(_ range: Range<Int>, of source: Int32) throws(ImageFileError) {
        var offset = off_t(range.lowerBound)
        var left = range.count
        while left > 0 {
            let moved = copy_file_range(source, &offset, descriptor, nil, left, 0)
            if moved < 0, errno == EINTR { continue }
            if moved < 0, [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP].contains(errno) {
                // Across file systems on an older kernel, or where it is not offered: copied here.
                return try copyByReading(Int(offset)..<range.upperBound, of: source)
            }
            guard moved > 0 else { throw Self.failure(target, "copy_file_range") }
            left -= moved
        }
    }

    private func copyByReading(_ range: Range<Int>, of source: Int32) throws(ImageFileError) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        var position = range.lowerBound
        while position < range.upperBound {
            let part = UnsafeMutableRawBufferPointer(rebasing: chunk[..<min(chunk.count, range.upperBound - position)])
            guard let got = InputFile.read(source, into: part, at: position), got == part.count else {
                throw Self.failure(target, "pread")
            }
            try write(UnsafeRawBufferPointer(part))
            position += got
        }
    }

    /// Appends `count` zero bytes.
    func writeZeros(_ count: Int) throws(ImageFileError) {
        let zeros = [UInt8](repeating: 0, count: min(count, 1 << 20))
        var left = count
        while left > 0 {
            try write(zeros[..<min(left, zeros.count)])
            left -= min(left, zeros.count)
        }
    }

    /// Flushes the file and gives it the name `path`: a link when `replacing` is false (fails
    /// with ``ImageFileError/Code/fileExists(path:)`` if the name is taken), else a rename
    /// over whatever is there. The folder is flushed too, so the new name survives a crash.
    ///
    /// A replaced file is held (`O_PATH`: no read access needed, no side effect of opening)
    /// across the rename and let go on a background queue: the rename then only moves names,
    /// and freeing the old file's blocks and cached pages — about half a millisecond for a
    /// 12 MP JPEG on ext4, more for larger files — is not on the caller's path.
    func commit(to path: String, replacing: Bool) throws(ImageFileError) {
        guard fsync(descriptor) == 0 else { throw Self.failure(path, "fsync") }
        if replacing, temporaryPath == nil { Self.removeLeftovers(in: folder) }
        let replaced = replacing ? Self.hold(path) : nil
        defer { if let replaced { DispatchQueue.global(qos: .utility).async { close(replaced) } } }
        if let temporaryPath {
            if replacing {
                guard rename(temporaryPath, path) == 0 else { throw Self.failure(path, "rename") }
            } else {
                guard link(temporaryPath, path) == 0 else {
                    if errno == EEXIST { throw ImageFileError(.fileExists(path: path)) }
                    throw Self.failure(path, "link")
                }
                unlink(temporaryPath)
            }
        } else {
            let handle = "/proc/self/fd/\(descriptor)"
            if replacing {
                // Linked under a hidden name, then renamed: the name exists for two system calls.
                var linked: String?
                for attempt in 0..<100 {
                    let candidate = "\(folder)/.\(URL(fileURLWithPath: path).lastPathComponent).\(getpid()).\(attempt)"
                    if linkat(AT_FDCWD, handle, AT_FDCWD, candidate, AT_SYMLINK_FOLLOW) == 0 { linked = candidate; break }
                    if errno != EEXIST { throw Self.failure(path, "linkat") }
                }
                guard let linked else { throw Self.failure(path, "linkat") }
                guard rename(linked, path) == 0 else {
                    let error = Self.failure(path, "rename")
                    unlink(linked)
                    throw error
                }
            } else {
                guard linkat(AT_FDCWD, handle, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 else {
                    if errno == EEXIST { throw ImageFileError(.fileExists(path: path)) }
                    throw Self.failure(path, "linkat")
                }
            }
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 { fsync(directory); close(directory) }
    }

    /// Folders this process has cleared of leftovers.
    private static let cleared = Mutex<Set<String>>([])

    /// Removes what a process killed between the link and the rename of a replacing commit left:
    /// `.NAME.PID.N` beside NAME, a regular file, whose PID no longer runs (there is no way to
    /// give a nameless file a name that is taken in one step, so the hidden name exists for two
    /// system calls). Once per folder per process: a folder of photos rewritten one by one is
    /// read once.
    private static func removeLeftovers(in folder: String) {
        guard cleared.withLock({ $0.insert(folder).inserted }), let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        var names: Set<String> = [], leftovers: [(name: String, target: String, process: pid_t)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            names.insert(name)
            if let (target, process) = leftover(name) { leftovers.append((name, target, process)) }
        }
        for leftover in leftovers where names.contains(leftover.target) {
            // ESRCH only: EPERM is a process of another user's, alive.
            guard kill(leftover.process, 0) != 0, errno == ESRCH else { continue }
            var status = stat()
            let path = "\(folder)/\(leftover.name)"
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG { unlink(path) }
        }
    }

    /// The name and the process of a hidden name that ``commit(to:replacing:)`` links,
    /// `.NAME.PID.N` (N below 100); nil for any other name.
    private static func leftover(_ name: String) -> (target: String, process: pid_t)? {
        guard name.hasPrefix(".") else { return nil }
        let parts = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let attempt = Int(parts[parts.count - 1]), (0..<100).contains(attempt),
              let process = pid_t(parts[parts.count - 2]), process > 0 else { return nil }
        let target = parts.dropLast(2).joined(separator: ".")
        return target.isEmpty ? nil : (target, process)
    }

    /// `O_PATH`, which Glibc imports only with _GNU_SOURCE (nil where its value is not listed
    /// here: replaced files are then let go in the rename itself).
    private static let pathOnlyFlag: Int32? = {
#if arch(x86_64) || arch(i386) || arch(arm64) || arch(arm)
        return 0o10000000
#else
        return nil
#endif
    }()

    /// A descriptor that keeps the file at `path` (not a link's target) from being freed while
    /// it is open; nil when there is nothing there or it cannot be held.
    private static func hold(_ path: String) -> Int32? {
        guard let O_PATH = pathOnlyFlag else { return nil }
        let descriptor = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    /// Closes the file; a temporary name that was not committed is removed (a nameless file
    /// simply vanishes).
    func discard() {
        close(descriptor)
        if let temporaryPath { unlink(temporaryPath) }
    }
}
