import CJPEGCoefficients
import CPNG
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// A PNG, JPEG or TIFF file whose rows of 8-bit RGB are pulled one at a time, top to bottom as
/// stored, where ``RGBRowReader`` pushes them: two pictures can then be compared row for row
/// with neither held whole. A PNG or a TIFF is read from its descriptor; a JPEG from its bytes,
/// held by the source (libjpeg reads them as it decodes; a progressive one also holds its DCT
/// coefficients, some 3 bytes a pixel at 4:2:0, but never the decoded picture).
///
/// The rows are those ``RGBRowReader`` gives; files it does not read by rows (DNG, PNG with
/// alpha or 16-bit samples, CMYK JPEG, …) give no source.
package final class RGBRowSource {
    /// The stored size, checked against ``PixelBudget``.
    package let size: PixelSize
    /// What a viewer applies to the stored rows: a JPEG's EXIF `Orientation`, a TIFF's IFD0
    /// tag; `.up` for a PNG. Known before the first row is read.
    package let orientation: Orientation
    private let input: Input
    private var message = [CChar](repeating: 0, count: 256)
    private var rowsRead = 0

    /// The reader of the rows and where the file's bytes come from; all are released with the
    /// source.
    private enum Input {
        case png(OpaquePointer, descriptor: Int32)
        case jpeg(OpaquePointer, bytes: UnsafeMutableRawBufferPointer)
        case tiff(TIFFRowReader, descriptor: Int32)
    }

    /// The rows of the PNG, JPEG or TIFF at `path`; nil when it is none of them or not read by
    /// rows.
    package init?(fileAt path: String) throws(CodecError) {
        let descriptor: Int32, fileSize: Int, signature: [UInt8]
        do { (descriptor, fileSize) = try InputFile.openRegular(path) } catch { throw .file(error) }
        do { signature = try InputFile.prefix(of: descriptor, count: PNGFile.signature.count, path: path) } catch {
            close(descriptor)
            throw .file(error)
        }
        var (width, height, status): (UInt32, UInt32, Int32) = (0, 0, 0)
        let format: String
        if signature == PNGFile.signature {
            guard let opened = pc_png_rows_open_file(descriptor, fileSize, &width, &height, &status, &message, 256) else {
                close(descriptor)
                if status == Int32(PC_PNG_ROWS_NOT_STREAMABLE) { return nil }
                throw RGBRowReader.failure(format: "PNG", step: "open", message: RGBRowReader.text(message))
            }
            (input, orientation, format) = (.png(opened, descriptor: descriptor), .up, "PNG")
        } else if !signature.starts(with: [0xFF, 0xD8]) {
            // A TIFF is read from its descriptor, its IFD0 (size, orientation) before any row.
            let reader: TIFFRowReader?
            do { reader = try TIFFRowReader(descriptor: descriptor, fileSize: fileSize, check: { _, _ throws(CodecError) in }) } catch {
                close(descriptor)
                throw error
            }
            guard let reader else {
                close(descriptor)
                return nil
            }
            (input, orientation, size) = (.tiff(reader, descriptor: descriptor), reader.orientation, reader.size)
            return
        } else {
            // A JPEG is decoded from its bytes: the descriptor is done with once they are read.
            let jpeg: (bytes: UnsafeMutableRawBufferPointer, info: ImageFileInfo)?
            do {
                defer { close(descriptor) }
                jpeg = try Self.jpegBytes(descriptor, path: path)
            }
            guard let (bytes, info) = jpeg else { return nil }
            guard let opened = pc_jpeg_rows_open(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &width, &height,
                                                 &status, &message) else {
                bytes.deallocate()
                if status == Int32(PC_JPEG_ROWS_NOT_STREAMABLE) { return nil }
                throw RGBRowReader.failure(format: "JPEG", step: "open", message: RGBRowReader.text(message))
            }
            (input, orientation, format) = (.jpeg(opened, bytes: bytes), info.orientation, "JPEG")
        }
        size = PixelSize(width: Int(width), height: Int(height))
        try PixelBudget.check(size, declaredBy: format)
    }

    /// The JPEG open as `descriptor` (`path` named in errors) in memory of the source's own (so
    /// that no pointer into an array outlives a closure) and what its header says; the array
    /// read is gone before the decode starts. Nil when the file is not a JPEG picture (a DNG, say).
    private static func jpegBytes(_ descriptor: Int32, path: String) throws(CodecError) -> (UnsafeMutableRawBufferPointer, ImageFileInfo)? {
        let data: [UInt8]
        do { data = try InputFile.read(descriptor: descriptor, path: path) } catch { throw .file(error) }
        let info = try ImageFileInfo(data: data)
        guard info.format == .jpeg else { return nil }
        try PixelBudget.check(info.storedSize, declaredBy: "JPEG")
        try JPEGDecoder.checkHoldsItsPicture(data)
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.withUnsafeBytes { bytes.copyMemory(from: $0) }
        return (bytes, info)
    }

    deinit {
        switch input {
        case .png(let reader, let descriptor):
            pc_png_rows_close(reader)
            close(descriptor)
        case .jpeg(let reader, let bytes):
            pc_jpeg_rows_close(reader)
            bytes.deallocate()
        case .tiff(_, let descriptor):
            close(descriptor)
        }
    }

    /// Decodes the next row into `row` (`size.width × 3` bytes); after the last, a PNG is read
    /// to its end, so damage after the pixels is found as ``RGBRowReader`` finds it.
    package func next(into row: UnsafeMutablePointer<UInt8>) throws(CodecError) {
        precondition(rowsRead < size.height, "read past the last row")
        switch input {
        case .png(let reader, _):
            guard pc_png_rows_read(reader, row, &message, 256) == 0 else { throw failure("read") }
        case .jpeg(let reader, _):
            guard pc_jpeg_rows_read(reader, row, &message) == 0 else { throw failure("read") }
        case .tiff(let reader, _):
            try reader.next(into: row)
        }
        rowsRead += 1
        if rowsRead == size.height, case .png(let reader, _) = input, pc_png_rows_finish(reader, &message, 256) != 0 { throw failure("finish") }
    }

    private func failure(_ step: String) -> CodecError {
        let format = if case .png = input { "PNG" } else { "JPEG" }
        return RGBRowReader.failure(format: format, step: step, message: RGBRowReader.text(message))
    }
}
