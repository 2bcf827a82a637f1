#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// Reads a whole file that photocap is asked to open, after checking what the path names, so
/// that a directory, a FIFO or a device (such as /dev/zero, which never ends) is refused with
/// a message that says so instead of blocking or filling memory.
public enum InputFile {
    /// The bytes of the regular file at `path` (symbolic links followed).
    ///
    /// - Parameter maximumBytes: refuse larger files with ``FileReadError/tooLarge(path:bytes:limit:)``
    ///   before reading them.
    public static func read(_ path: String, maximumBytes: Int = .max) throws(FileReadError) -> [UInt8] {
        try withOpenFile(path, maximumBytes: maximumBytes) { (descriptor, size) throws(FileReadError) in
            try contents(of: descriptor, size: size, path: path)
        }
    }

    /// The bytes of the regular file open as `descriptor` (from ``openRegular(_:)``), from its
    /// start, whatever has been read of it before; `path` names it in errors.
    package static func read(descriptor: Int32, path: String) throws(FileReadError) -> [UInt8] {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(path, "fstat") }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure(path, "lseek") }
        return try contents(of: descriptor, size: Int(status.st_size), path: path)
    }

    /// `size` bytes (or as many as are left) read from `descriptor`; never empty.
    private static func contents(of descriptor: Int32, size: Int, path: String) throws(FileReadError) -> [UInt8] {
        // Written only by the read (no zeroing first); the file may have shrunk since its size
        // was taken: what was there is kept.
        var outcome: Result<Int, FileReadError> = .success(0)
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { (buffer, initialized) in
            outcome = Result { () throws(FileReadError) in try readAll(descriptor, into: UnsafeMutableRawBufferPointer(buffer), path: path) }
            initialized = (try? outcome.get()) ?? 0
        }
        _ = try outcome.get()
        guard !bytes.isEmpty else { throw .empty(path: path) }
        return bytes
    }

    /// Opens the regular file at `path` after the same checks as ``read(_:maximumBytes:)`` and
    /// calls `body` with its descriptor and size (never 0, never over `maximumBytes`), so that a
    /// caller can read it straight into storage of its own; the descriptor is closed afterwards.
    public static func withOpenFile<Result>(
        _ path: String, maximumBytes: Int = .max,
        _ body: (_ descriptor: Int32, _ size: Int) throws(FileReadError) -> Result
    ) throws(FileReadError) -> Result {
        let (descriptor, size) = try openRegular(path)
        defer { close(descriptor) }
        guard size > 0 else { throw .empty(path: path) }
        guard size <= maximumBytes else { throw .tooLarge(path: path, bytes: size, limit: maximumBytes) }
        return try body(descriptor, size)
    }

    /// Up to the first `count` bytes of the regular file at `path`, after the same checks as
    /// ``read(_:maximumBytes:)``: enough to tell a file's kind without reading it whole.
    package static func prefix(of path: String, count: Int) throws(FileReadError) -> [UInt8] {
        try withOpenFile(path) { (descriptor, _) throws(FileReadError) in try prefix(of: descriptor, count: count, path: path) }
    }

    /// Up to the first `count` bytes of the regular file open as `descriptor`, from its start
    /// whatever has been read of it before; `path` names it in errors.
    package static func prefix(of descriptor: Int32, count: Int, path: String) throws(FileReadError) -> [UInt8] {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure(path, "lseek") }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(FileReadError) in try readAll(descriptor, into: buffer, path: path) }
        }
        return Array(bytes.prefix(try read.get()))
    }

    /// Opens the regular file at `path` (symbolic links followed) for reading, once it is known
    /// to be one: its descriptor, which the caller closes, and its size (possibly 0). A
    /// directory, a FIFO or a device is refused as ``read(_:maximumBytes:)`` refuses it.
    public static func openRegular(_ path: String) throws(FileReadError) -> (descriptor: Int32, size: Int) {
        // stat before open: opening a FIFO for reading would block until a writer came.
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure(path, "stat") }
        try checkRegular(status, path)
        // O_NONBLOCK: should the path be swapped for a FIFO since stat, open still returns.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "open") }
        do throws(FileReadError) {
            guard fstat(descriptor, &status) == 0 else { throw failure(path, "fstat") }
            try checkRegular(status, path)
        } catch {
            close(descriptor)
            throw error
        }
        return (descriptor, Int(status.st_size))
    }

    /// The first `count` bytes of the open regular file `descriptor`, mapped read-only and
    /// shared with the page cache; nil where the file system cannot map files (read it then).
    /// Release with ``unmap(_:)``.
    ///
    /// A read needs fresh memory, which the kernel zeroes before the copy: a 36 MB frame file
    /// took 3.1–3.5 ms to read into huge pages, and now and then 20–90 ms (on this VM, about one
    /// fresh huge page in eight faults some 25 times slower, no compaction counted: the host
    /// backs it anew); mapped, it costs ~0.8 ms of page faults on first touch. The price: should
    /// another program truncate the file while it is mapped, touching the lost pages raises
    /// SIGBUS. Replacing the file (a rename) or deleting it is safe.
    package static func map(_ descriptor: Int32, count: Int) -> UnsafeRawBufferPointer? {
        guard count > 0, let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0),
              address != MAP_FAILED else { return nil }
        return UnsafeRawBufferPointer(start: address, count: count)
    }

    /// Maps every page of `bytes` (from ``map(_:count:)``) now, in one call
    /// (`MADV_POPULATE_READ`), instead of a fault per 64 KiB on first touch: the same work
    /// (some 2.7 ms for 36 MB here), done where it can wait for nobody. Pages a truncation took
    /// away are left unmapped (the call fails instead of raising SIGBUS); nothing else changes.
    package static func populate(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, Self.populateRead)
    }

    /// `MADV_POPULATE_READ` (Linux 5.14), which Glibc's headers here may not name; an older
    /// kernel refuses it (EINVAL) and the pages fault in on first touch as before.
    private static let populateRead: Int32 = 22

    /// Releases bytes from ``map(_:count:)``.
    package static func unmap(_ bytes: UnsafeRawBufferPointer) {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// Reads from `descriptor` until `buffer` is full or the file ends; the number of bytes read.
    ///
    /// One read on one thread: read in two pieces on two cores at once, a 24 MB frame file took
    /// no less time (one piece 1.7 ms, the other 3.3 ms, the whole 3.1–3.8 ms; this VM).
    public static func readAll(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer,
                               path: String) throws(FileReadError) -> Int {
        var offset = 0
        while offset < buffer.count {
            let count = Glibc.read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0 { if errno == EINTR { continue }; throw failure(path, "read") }
            if count == 0 { break }
            offset += count
        }
        return offset
    }

    /// Reads from byte `offset` of `descriptor` until `buffer` is full or the file ends: the
    /// number of bytes read, or nil when a read fails (`errno` says why). The file position
    /// is left alone (`pread`).
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int? {
        var done = 0
        while done < buffer.count {
            let moved = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if moved < 0, errno == EINTR { continue }
            if moved < 0 { return nil }
            if moved == 0 { break }
            done += moved
        }
        return done
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
        default: return .failed(path: path, call: call, errno: Errno(errno))
        }
    }
}
