import CTIFF
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// A file that libtiff reads and writes through `TIFFClientOpenExt` — a growable array in
/// memory, or a regular file read through `pread` on an open descriptor, so that a large file
/// is not held whole to be read — and that collects libtiff's error messages for it.
final class TIFFStream {
    /// The file in memory; empty, and unused, for a stream over a descriptor.
    var bytes: [UInt8]
    /// The regular file read instead of ``bytes``; not closed by the stream.
    private let descriptor: Int32?
    /// The size of the file over ``descriptor``.
    private let descriptorSize: Int
    private var position = 0
    /// libtiff's error messages for this file, oldest first.
    private(set) var errors: [String] = []

    init(bytes: [UInt8] = []) {
        self.bytes = bytes
        descriptor = nil
        descriptorSize = 0
    }

    /// A stream that reads the regular file `descriptor` of `size` bytes (from
    /// ``InputFile/openRegular(_:)`` or ``InputFile/withOpenFile(_:maximumBytes:_:)``, which
    /// refuse FIFOs and devices); open it with a reading mode. The caller keeps the descriptor
    /// open while the stream is used and closes it afterwards.
    init(descriptor: Int32, size: Int) {
        bytes = []
        self.descriptor = descriptor
        descriptorSize = size
    }

    /// The file's size.
    private var count: Int { descriptor == nil ? bytes.count : descriptorSize }

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
            { context in toff_t(TIFFStream.from(context).count) },
            { _, _, _ in 0 },  // no memory mapping: libtiff falls back to reads
            { _, _, _ in },
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

    private func read(into buffer: UnsafeMutableRawPointer?, count: tmsize_t) -> tmsize_t {
        let available = max(0, min(Int(count), self.count - position))
        guard available > 0, let buffer else { return 0 }
        if let descriptor {
            // Until `available` bytes are read or the file ends; a failure is kept among the
            // errors, for libtiff's own to follow.
            var done = 0
            while done < available {
                let moved = pread(descriptor, buffer + done, available - done, off_t(position + done))
                if moved < 0, errno == EINTR { continue }
                if moved < 0 { errors.append("\(String(cString: strerror(errno))) at byte \(position + done)") }
                if moved <= 0 { break }
                done += moved
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
        // A file over a descriptor is only read.
        guard descriptor == nil else { return -1 }
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
        case SEEK_END: base = self.count
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
