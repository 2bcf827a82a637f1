import CJPEGCoefficients
import CPNG
import Imaging

/// A picture read one row of 8-bit RGB at a time, top to bottom as stored (no orientation
/// applied), so that it can be compared with another without both being held whole: a
/// 16384×16384 picture is 805 MB of RGB, its rows 48 KB each.
///
/// Only files whose rows are exactly the bytes the whole decode gives are read this way: PNG
/// without alpha, 16-bit samples, interlacing or a gamma other than sRGB's (libpng's simplified
/// API would convert those), JPEG in Y'CbCr, grey or RGB (decoded by the same libjpeg-turbo
/// with TurboJPEG's settings), and TIFF (not DNG), which the whole decode reads by rows too.
/// Anything else reads as `nil`, for the caller to decode whole.
package enum RGBRowReader {
    /// Calls `body` with the size and then each row (`y`, `width × 3` bytes valid during the
    /// call) of the PNG, JPEG or TIFF `data`, in order; nil, with no call, when the file is not
    /// one read by rows. The size is checked against ``PixelBudget`` before anything is allocated.
    package static func read(_ data: [UInt8],
                             _ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void) throws(CodecError) -> PixelSize? {
        if data.starts(with: PNGFile.signature) { return try readPNG(data, body) }
        if data.starts(with: [0xFF, 0xD8]) { return try readJPEG(data, body) }
        if let ifd0 = TIFFHeader.firstIFDIntegers(data), !TIFFHeader.isDNG(ifd0) { return try TIFFFile.readRows(data, body).size }
        return nil
    }

    /// The picture of the PNG, JPEG or TIFF `data` turned by `orientation`, decoded a band of rows
    /// at a time into the turned picture (one picture's memory, not two); nil when the file is
    /// not one read by rows.
    package static func readTurned(_ data: [UInt8], by orientation: Orientation) throws(CodecError) -> RGBImage? {
        var bands: RowBands?
        var turn: RowBands.Turn?
        var turned: RGBImage?
        // A large progressive JPEG would hold its coefficients beside the turned picture.
        let size = try read(data.starts(with: [0xFF, 0xD8]) ? JPEGDecoder.decodable(data) : data) { size, _, row in
            if bands == nil {
                (bands, turn) = (RowBands(size: size), RowBands.Turn(size: size, orientation: orientation))
                turned = RGBImage(size: orientation.apply(to: size), pixels: [UInt8](repeating: 0, count: size.area * 3))
            }
            bands!.add(row) { band in turn!.place(band, in: &turned!) }
        }
        return size == nil ? nil : turned
    }

    /// ``read(_:_:)`` of the file at `path`: a PNG is read from its descriptor a few hundred KiB
    /// at a time, never held whole (a detailed PNG is about as large as its picture), and a TIFF
    /// as libtiff asks for its parts; other files are read whole first.
    package static func read(fileAt path: String,
                             _ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void) throws(CodecError) -> PixelSize? {
        let read: Result<PixelSize?, CodecError>
        do {
            read = try InputFile.withOpenFile(path) { (descriptor, size) throws(FileReadError) in
                let prefix = try InputFile.prefix(of: descriptor, count: PNGFile.signature.count, path: path)
                if prefix == PNGFile.signature {
                    return Result { () throws(CodecError) in try readPNG(descriptor: descriptor, size: size, body) }
                }
                if TIFFHeader(prefix) != nil {
                    return Result { () throws(CodecError) in
                        try TIFFFile.readRows(descriptor: descriptor, fileSize: size, check: { _, _ throws(CodecError) in }, body)?.size
                    }
                }
                let data = try InputFile.read(descriptor: descriptor, path: path)
                return Result { () throws(CodecError) in try Self.read(data, body) }
            }
        } catch {
            throw .file(error)
        }
        return try read.get()
    }

    private static func readPNG(_ data: [UInt8],
                                _ body: (PixelSize, Int, UnsafeBufferPointer<UInt8>) -> Void) throws(CodecError) -> PixelSize? {
        try withBytes(data) { (bytes) throws(CodecError) in
            try readPNGRows(body) { width, height, status, message in
                pc_png_rows_open(bytes.baseAddress, bytes.count, width, height, status, message, 256)
            }
        }
    }

    private static func readPNG(descriptor: Int32, size: Int,
                                _ body: (PixelSize, Int, UnsafeBufferPointer<UInt8>) -> Void) throws(CodecError) -> PixelSize? {
        try readPNGRows(body) { width, height, status, message in
            pc_png_rows_open_file(descriptor, size, width, height, status, message, 256)
        }
    }

    private static func readPNGRows(
        _ body: (PixelSize, Int, UnsafeBufferPointer<UInt8>) -> Void,
        open: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<CChar>)
            -> OpaquePointer?
    ) throws(CodecError) -> PixelSize? {
        try readRows(format: "PNG", body, notStreamable: Int32(PC_PNG_ROWS_NOT_STREAMABLE),
                     failure: { step, message in failure(format: "PNG", step: step, message: message) },
                     open: open,
                     read: { rows, row, message in pc_png_rows_read(rows, row, message, 256) },
                     finish: { rows, message in pc_png_rows_finish(rows, message, 256) },
                     close: { pc_png_rows_close($0) })
    }

    private static func readJPEG(_ data: [UInt8],
                                 _ body: (PixelSize, Int, UnsafeBufferPointer<UInt8>) -> Void) throws(CodecError) -> PixelSize? {
        try withBytes(data) { (bytes) throws(CodecError) in
            try readRows(format: "JPEG", body, notStreamable: Int32(PC_JPEG_ROWS_NOT_STREAMABLE),
                         failure: { step, message in failure(format: "JPEG", step: step, message: message) },
                         open: { width, height, status, message in
                             pc_jpeg_rows_open(bytes.baseAddress, bytes.count, width, height, status, message)
                         },
                         read: { rows, row, message in pc_jpeg_rows_read(rows, row, message) },
                         finish: { _, _ in 0 },
                         close: { pc_jpeg_rows_close($0) })
        }
    }

    /// `body` with `data`'s bytes, its typed error kept (`withUnsafeBufferPointer` rethrows
    /// untyped ones).
    private static func withBytes<T>(_ data: [UInt8],
                                     _ body: (UnsafeBufferPointer<UInt8>) throws(CodecError) -> T) throws(CodecError) -> T {
        try data.withUnsafeBufferPointer { bytes in Result { () throws(CodecError) in try body(bytes) } }.get()
    }

    /// One C row reader driven: `open` (size, a status that may be `notStreamable`), the size
    /// checked against the budget, `read` for each row (0, or -1 with a message of at most 256
    /// bytes), `finish` and `close`; `failure` makes the error of a step ("open", "read",
    /// "finish") from libjpeg's or libpng's message.
    private static func readRows(
        format: String, _ body: (PixelSize, Int, UnsafeBufferPointer<UInt8>) -> Void, notStreamable: Int32,
        failure: (String, String) -> CodecError,
        open: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<Int32>,
               UnsafeMutablePointer<CChar>) -> OpaquePointer?,
        read: (OpaquePointer, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<CChar>) -> Int32,
        finish: (OpaquePointer, UnsafeMutablePointer<CChar>) -> Int32,
        close: (OpaquePointer) -> Void
    ) throws(CodecError) -> PixelSize? {
        var message = [CChar](repeating: 0, count: 256)
        var (width, height, status): (UInt32, UInt32, Int32) = (0, 0, 0)
        guard let rows = open(&width, &height, &status, &message) else {
            if status == notStreamable { return nil }
            throw failure("open", text(message))
        }
        defer { close(rows) }
        let size = PixelSize(width: Int(width), height: Int(height))
        try PixelBudget.check(size, declaredBy: format)
        var row = [UInt8](repeating: 0, count: size.width * 3)
        for y in 0..<size.height {
            let status = row.withUnsafeMutableBufferPointer { read(rows, $0.baseAddress!, &message) }
            guard status == 0 else { throw failure("read", text(message)) }
            row.withUnsafeBufferPointer { body(size, y, $0) }
        }
        guard finish(rows, &message) == 0 else { throw failure("finish", text(message)) }
        return size
    }

    /// The error of a step ("open", "read", "finish") of reading a PNG's or JPEG's rows, from
    /// libpng's or libjpeg's message.
    static func failure(format: String, step: String, message: String) -> CodecError {
        format == "PNG" ? .corruptFile(format: "PNG", reason: message)
            : .libjpeg(function: step == "open" ? "jpeg_read_header" : "jpeg_read_scanlines", message: message)
    }

    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
