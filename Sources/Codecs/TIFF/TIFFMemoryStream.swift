import CTIFF
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// A growable in-memory file that libtiff reads and writes through `TIFFClientOpenExt`, and
/// that collects libtiff's error messages for the file.
final class TIFFMemoryStream {
    var bytes: [UInt8]
    private var position = 0
    /// libtiff's error messages for this file, oldest first.
    private(set) var errors: [String] = []

    init(bytes: [UInt8] = []) { self.bytes = bytes }

    /// The last libtiff message, or a generic one.
    var lastError: String { errors.last ?? "no message from libtiff" }

    /// Opens the stream with `mode` ("w", "r", …); the returned handle closes the file.
    func open(mode: String) throws(CodecError) -> TIFFHandle {
        try LibTIFF.load()
        guard let options = libtiff.OpenOptionsAlloc() else { throw .tiff(function: "TIFFOpenOptionsAlloc", message: "out of memory") }
        defer { libtiff.OpenOptionsFree(options) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        libtiff.OpenOptionsSetErrorHandlerExtR(options, { _, context, module, format, arguments in
            let stream = Unmanaged<TIFFMemoryStream>.fromOpaque(context!).takeUnretainedValue()
            if let arguments {
                stream.errors.append(TIFFMemoryStream.format(module: module, format: format, arguments: arguments))
            }
            return 1  // handled: keep libtiff from printing to stderr
        }, context)
        // Warnings (unknown tags and the like) do not make a file invalid; keep them off stderr.
        libtiff.OpenOptionsSetWarningHandlerExtR(options, { _, _, _, _, _ in 1 }, context)
        let tiff = libtiff.ClientOpenExt("memory", mode, context,
            { context, buffer, count in TIFFMemoryStream.from(context).read(into: buffer, count: count) },
            { context, buffer, count in TIFFMemoryStream.from(context).write(from: buffer, count: count) },
            { context, offset, whence in TIFFMemoryStream.from(context).seek(to: offset, whence: whence) },
            { _ in 0 },
            { context in toff_t(TIFFMemoryStream.from(context).bytes.count) },
            { _, _, _ in 0 },  // no memory mapping: libtiff falls back to reads
            { _, _, _ in },
            options)
        guard let tiff else { throw .tiff(function: "TIFFClientOpenExt", message: lastError) }
        return TIFFHandle(tiff, stream: self)
    }

    private static func from(_ context: thandle_t?) -> TIFFMemoryStream {
        Unmanaged<TIFFMemoryStream>.fromOpaque(context!).takeUnretainedValue()
    }

    private static func format(module: UnsafePointer<CChar>?, format: UnsafePointer<CChar>?, arguments: CVaListPointer) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        _ = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
        let message = String(cMessage: buffer)
        return module.map { "\(String(cString: $0)): \(message)" } ?? message
    }

    private func read(into buffer: UnsafeMutableRawPointer?, count: tmsize_t) -> tmsize_t {
        let available = max(0, min(Int(count), bytes.count - position))
        guard available > 0, let buffer else { return 0 }
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + position, byteCount: available) }
        position += available
        return tmsize_t(available)
    }

    private func write(from buffer: UnsafeMutableRawPointer?, count: tmsize_t) -> tmsize_t {
        guard count > 0, let buffer else { return 0 }
        let count = Int(count)
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
        case SEEK_END: base = bytes.count
        default: base = 0
        }
        // toff_t is unsigned; relative seeks backwards arrive as two's complement.
        let target = base &+ Int(truncatingIfNeeded: offset)
        guard target >= 0 else { return toff_t(bitPattern: -1) }
        position = target
        return toff_t(target)
    }
}

/// An open libtiff file over a ``TIFFMemoryStream``; closed (and flushed) with the object.
final class TIFFHandle {
    let tiff: OpaquePointer
    let stream: TIFFMemoryStream
    private var isOpen = true

    init(_ tiff: OpaquePointer, stream: TIFFMemoryStream) {
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
