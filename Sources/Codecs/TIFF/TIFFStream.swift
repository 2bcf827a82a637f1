import CTIFF
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// A file that libtiff reads and writes through `TIFFClientOpenExt` — a growable array in
/// memory, or a regular file on an open descriptor, so that a large file is not held whole —
/// and that collects libtiff's error messages for it.
///
/// A file read over a descriptor is mapped for libtiff, which then decodes a strip from the
/// mapping instead of reading it whole into a buffer of its own first (Debian's libtiff is
/// built without chunky strip reading): a one-strip file would otherwise hold its coded
/// picture beside the decoded one. Mapped pages count as the process's own while they stay
/// mapped, so readers call ``releaseMappedPages()`` as they go.
final class TIFFStream {
    /// The file in memory; empty, and unused, for a stream over a descriptor.
    var bytes: [UInt8]
    /// The regular file read (or written) instead of ``bytes``; not closed by the stream.
    private let descriptor: Int32?
    /// Whether the file over ``descriptor`` is written (a new file) rather than read.
    private let writesDescriptor: Bool
    /// The size of the file over ``descriptor``: given when read, the furthest byte written.
    private var descriptorSize: Int
    /// The file over ``descriptor`` as libtiff mapped it, while it is.
    private var mapping: UnsafeRawBufferPointer?
    private var position = 0
    /// libtiff's error messages for this file, oldest first.
    private(set) var errors: [String] = []

    init(bytes: [UInt8] = []) {
        self.bytes = bytes
        descriptor = nil
        writesDescriptor = false
        descriptorSize = 0
    }

    /// A stream that reads the regular file `descriptor` of `size` bytes (from
    /// ``InputFile/openRegular(_:)`` or ``InputFile/withOpenFile(_:maximumBytes:_:)``, which
    /// refuse FIFOs and devices); open it with a reading mode. The caller keeps the descriptor
    /// open while the stream is used and closes it afterwards.
    init(descriptor: Int32, size: Int) {
        bytes = []
        self.descriptor = descriptor
        writesDescriptor = false
        descriptorSize = size
    }

    /// A stream that writes a new file into the empty file `descriptor` (opened for reading
    /// and writing, so that it can be read again afterwards); open it with a writing mode.
    init(writingTo descriptor: Int32) {
        bytes = []
        self.descriptor = descriptor
        writesDescriptor = true
        descriptorSize = 0
    }

    /// Lets go of the pages of the mapped file that the reader has touched, so that they no
    /// longer count as the process's memory; those it needs again are read again from the
    /// page cache. Does nothing for a stream that is not mapped.
    func releaseMappedPages() {
        guard let mapping, let base = mapping.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), mapping.count, MADV_DONTNEED)
    }

    /// The file's size.
    var size: Int { descriptor == nil ? bytes.count : descriptorSize }

    /// A stream that reads what this one holds, written or read.
    func reopened() -> TIFFStream {
        descriptor.map { TIFFStream(descriptor: $0, size: descriptorSize) } ?? TIFFStream(bytes: bytes)
    }

    /// The last libtiff message, or a generic one.
    var lastError: String { errors.last ?? "no message from libtiff" }

    /// Opens the stream with `mode` ("w", "r", …); the returned handle closes the file.
    func open(mode: String) throws(CodecError) -> TIFFHandle {
        try LibTIFF.load()
        guard let options = libtiff.OpenOptionsAlloc() else { throw .tiff(function: "TIFFOpenOptionsAlloc", message: "out of memory") }
        defer { libtiff.OpenOptionsFree(options) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        libtiff.OpenOptionsSetErrorHandlerExtR(options, { _, context, module, format, arguments in
            let stream = Unmanaged<TIFFStream>.fromOpaque(context!).takeUnretainedValue()
            if let arguments {
                stream.errors.append(TIFFStream.format(module: module, format: format, arguments: arguments))
            }
            return 1  // handled: keep libtiff from printing to stderr
        }, context)
        // Warnings (unknown tags and the like) do not make a file invalid; keep them off stderr.
        libtiff.OpenOptionsSetWarningHandlerExtR(options, { _, _, _, _, _ in 1 }, context)
        let tiff = libtiff.ClientOpenExt(descriptor == nil ? "memory" : "file", mode, context,
            { context, buffer, count in TIFFStream.from(context).read(into: buffer, count: count) },
            { context, buffer, count in TIFFStream.from(context).write(from: buffer, count: count) },
            { context, offset, whence in TIFFStream.from(context).seek(to: offset, whence: whence) },
            { _ in 0 },
            { context in toff_t(TIFFStream.from(context).size) },
            { context, base, size in TIFFStream.from(context).map(base, size) },
            { context, _, _ in TIFFStream.from(context).unmap() },
            options)
        guard let tiff else { throw .tiff(function: "TIFFClientOpenExt", message: lastError) }
        return TIFFHandle(tiff, stream: self)
    }

    private static func from(_ context: thandle_t?) -> TIFFStream {
        Unmanaged<TIFFStream>.fromOpaque(context!).takeUnretainedValue()
    }

    private static func format(module: UnsafePointer<CChar>?, format: UnsafePointer<CChar>?, arguments: CVaListPointer) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        _ = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
        let message = String(cMessage: buffer)
        return module.map { "\(String(cString: $0)): \(message)" } ?? message
    }

    /// Maps a file read over a descriptor; 0 (libtiff then reads) for anything else.
    private func map(_ base: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ size: UnsafeMutablePointer<toff_t>?) -> Int32 {
        guard let descriptor, !writesDescriptor, mapping == nil, let base, let size,
              let mapped = InputFile.map(descriptor, count: descriptorSize) else { return 0 }
        mapping = mapped
        base.pointee = UnsafeMutableRawPointer(mutating: mapped.baseAddress)
        size.pointee = toff_t(mapped.count)
        return 1
    }

    private func unmap() {
        if let mapping { InputFile.unmap(mapping) }
        mapping = nil
    }

    private func read(into buffer: UnsafeMutableRawPointer?, count: tmsize_t) -> tmsize_t {
        let available = max(0, min(Int(count), size - position))
        guard available > 0, let buffer else { return 0 }
        if let descriptor {
            // A failure is kept among the errors, for libtiff's own to follow.
            let target = UnsafeMutableRawBufferPointer(start: buffer, count: available)
            guard let done = InputFile.read(descriptor, into: target, at: position) else {
                errors.append("\(String(cString: strerror(errno))) at byte \(position)")
                return -1
            }
            position += done
            return tmsize_t(done)
        }
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + position, byteCount: available) }
        position += available
        return tmsize_t(available)
    }

    private func write(from buffer: UnsafeMutableRawPointer?, count: tmsize_t) -> tmsize_t {
        guard count > 0, let buffer else { return 0 }
        let count = Int(count)
        if let descriptor {
            guard writesDescriptor else { return -1 }
            var done = 0
            while done < count {
                let moved = pwrite(descriptor, buffer + done, count - done, off_t(position + done))
                if moved < 0, errno == EINTR { continue }
                if moved <= 0 {
                    errors.append("\(String(cString: strerror(errno))) writing at byte \(position + done)")
                    return -1
                }
                done += moved
            }
            position += count
            descriptorSize = max(descriptorSize, position)
            return tmsize_t(count)
        }
        let end = position + count
        if position == bytes.count {
            // Appending, as libtiff does for image data: one bulk copy.
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: count))
        } else {
            if end > bytes.count { bytes.append(contentsOf: repeatElement(0, count: end - bytes.count)) }
            bytes.withUnsafeMutableBytes { ($0.baseAddress! + position).copyMemory(from: buffer, byteCount: count) }
        }
        position = end
        return tmsize_t(count)
    }

    private func seek(to offset: toff_t, whence: Int32) -> toff_t {
        let base: Int
        switch whence {
        case SEEK_CUR: base = position
        case SEEK_END: base = size
        default: base = 0
        }
        // toff_t is unsigned; relative seeks backwards arrive as two's complement.
        let target = base &+ Int(truncatingIfNeeded: offset)
        guard target >= 0 else { return toff_t(bitPattern: -1) }
        position = target
        return toff_t(target)
    }
}

/// An open libtiff file over a ``TIFFStream``; closed (and flushed) with the object.
final class TIFFHandle {
    let tiff: OpaquePointer
    let stream: TIFFStream
    private var isOpen = true

    init(_ tiff: OpaquePointer, stream: TIFFStream) {
        self.tiff = tiff
        self.stream = stream
    }

    deinit { close() }

    /// Flushes and closes the file; later calls do nothing.
    func close() {
        guard isOpen else { return }
        isOpen = false
        libtiff.Close(tiff)
    }

    /// `TIFFSetField` through its va_list form (Swift cannot call C variadics).
    func set(_ tag: UInt32, _ arguments: CVarArg...) throws(CodecError) {
        try check(setField(tag, arguments), tag: tag)
    }

    /// `TIFFSetField` returning libtiff's status, for use inside pointer closures.
    func setField(_ tag: UInt32, _ arguments: [CVarArg]) -> Int32 {
        withVaList(arguments) { libtiff.VSetField(tiff, tag, $0) }
    }

    /// Throws with libtiff's message when setting `tag` returned `ok` = 0.
    func check(_ ok: Int32, tag: UInt32) throws(CodecError) {
        try check(ok, "TIFFSetField(\(tag))")
    }

    /// `TIFFGetField` through its va_list form; false when the tag is absent.
    func get(_ tag: UInt32, _ arguments: CVarArg...) -> Bool {
        withVaList(arguments) { libtiff.VGetField(tiff, tag, $0) } == 1
    }

    /// Whether libtiff knows `tag` in the current directory type.
    func knows(_ tag: UInt32) -> Bool { libtiff.FindField(tiff, tag, TIFF_NOTYPE) != nil }

    /// Throws with libtiff's message when `ok` is 0 (libtiff's failure value).
    func check(_ ok: Int32, _ function: String) throws(CodecError) {
        guard ok != 0 else { throw .tiff(function: function, message: stream.lastError) }
    }
}
