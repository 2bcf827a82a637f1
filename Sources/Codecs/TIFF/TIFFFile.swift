import CTIFF
import Imaging

/// Writes baseline RGB TIFF files in memory, and reads TIFF files from memory or from a
/// descriptor, with libtiff.
package enum TIFFFile {
    /// Strips of about this many bytes: a few strips for a photo, one for a thumbnail.
    static let stripByteTarget = 1 << 20

    /// Encodes packed RGB (R, G, B, rows without padding) as a baseline TIFF: 8-bit,
    /// contiguous, LZW-compressed strips with the horizontal predictor, `Orientation` =
    /// `metadata.orientation`, Make/Model/Software/DateTime in IFD0, and an EXIF sub-IFD with
    /// the capture time (DateTimeOriginal, SubSecTimeOriginal, OffsetTimeOriginal), exposure,
    /// ISO, exposure bias, unique ID, ColorSpace and ExifVersion; `xmp`, when given, as the
    /// `XMLPacket` tag (700) of IFD0.
    ///
    /// LZW rather than Deflate because `exiftool -validate` flags Deflate (8) as an invalid
    /// TIFF 6 Compression; PixelX/YDimension are left out because EXIF does not allow them in
    /// TIFF files (ImageWidth/ImageLength say it).
    package static func encode(rgb: [UInt8], size: PixelSize, metadata: EXIFMetadata, xmp: String? = nil) throws(CodecError) -> [UInt8] {
        let rowBytes = size.width * 3
        guard rgb.count == rowBytes * size.height else {
            throw .invalidArgument("\(rgb.count) bytes are not \(size) packed RGB (\(rowBytes * size.height) bytes)")
        }
        // Array.withUnsafeBytes rethrows untyped errors: the typed one comes out as a Result.
        let encoded = rgb.withUnsafeBytes { rgb in
            Result { () throws(CodecError) in
                try encode(size: size, metadata: metadata, xmp: xmp) { rows, strip in
                    strip.copyMemory(from: UnsafeRawBufferPointer(rebasing: rgb[(rows.lowerBound * rowBytes)..<(rows.upperBound * rowBytes)]))
                }
            }
        }
        return try encoded.get()
    }

    /// ``encode(rgb:size:metadata:xmp:)`` of a picture whose packed RGB rows `fill` writes a
    /// strip at a time (rows `rows` into `strip`, rows without padding), as each strip is coded.
    package static func encode(size: PixelSize, metadata: EXIFMetadata, xmp: String? = nil,
                               rows fill: (_ rows: Range<Int>, _ strip: UnsafeMutableRawBufferPointer) throws(CodecError) -> Void)
        throws(CodecError) -> [UInt8] {
        guard !size.isEmpty, size.width <= Int(UInt32.max), size.height <= Int(UInt32.max) else {
            throw .invalidArgument("invalid TIFF size \(size)")
        }
        let rowBytes = size.width * 3
        let stream = TIFFStream()
        let file = try stream.open(mode: "wl")  // little-endian classic TIFF

        // IFD0: the image.
        try file.set(UInt32(TIFFTAG_IMAGEWIDTH), UInt32(size.width))
        try file.set(UInt32(TIFFTAG_IMAGELENGTH), UInt32(size.height))
        try file.set(UInt32(TIFFTAG_BITSPERSAMPLE), Int32(8))
        try file.set(UInt32(TIFFTAG_SAMPLESPERPIXEL), Int32(3))
        try file.set(UInt32(TIFFTAG_PHOTOMETRIC), Int32(PHOTOMETRIC_RGB))
        try file.set(UInt32(TIFFTAG_PLANARCONFIG), Int32(PLANARCONFIG_CONTIG))
        try file.set(UInt32(TIFFTAG_COMPRESSION), Int32(COMPRESSION_LZW))
        try file.set(UInt32(TIFFTAG_PREDICTOR), Int32(PREDICTOR_HORIZONTAL))
        try file.set(UInt32(TIFFTAG_ORIENTATION), Int32(metadata.orientation.exifValue))
        let rowsPerStrip = min(size.height, max(1, stripByteTarget / rowBytes))
        try file.set(UInt32(TIFFTAG_ROWSPERSTRIP), UInt32(rowsPerStrip))
        try file.set(UInt32(TIFFTAG_XRESOLUTION), Double(72))
        try file.set(UInt32(TIFFTAG_YRESOLUTION), Double(72))
        try file.set(UInt32(TIFFTAG_RESOLUTIONUNIT), Int32(RESUNIT_INCH))
        try file.setIdentification(metadata)
        try file.setXMP(xmp)
        // A placeholder, so IFD0 keeps its size when the real offset is filled in below.
        try file.set(UInt32(TIFFTAG_EXIFIFD), UInt64(0))
        try file.writeStrips(rowBytes: rowBytes, rows: size.height, rowsPerStrip: rowsPerStrip, fill: fill)
        try file.check(libtiff.WriteDirectory(file.tiff), "TIFFWriteDirectory")
        try file.writeEXIFDirectory(metadata, colorSpace: 1)
        file.close()
        guard stream.errors.isEmpty else { throw .tiff(function: "TIFFClose", message: stream.lastError) }
        return stream.bytes
    }

    /// Reads an RGB(A) TIFF: its stored size, its `Orientation` tag (absent → `.up`), its
    /// stored pixels as packed RGB (alpha dropped). Any layout libtiff's RGBA reader
    /// understands is accepted. The declared size is checked against ``PixelBudget`` before
    /// anything is allocated.
    package static func read(_ data: [UInt8]) throws(CodecError) -> (size: PixelSize, orientation: Orientation, rgb: [UInt8]) {
        var rgb: [UInt8] = []
        let (size, orientation) = try readRows(data) { size, y, row in
            if y == 0 { rgb.reserveCapacity(size.area * 3) }
            rgb.append(contentsOf: row)
        }
        return (size, orientation, rgb)
    }

    /// Calls `body` with the stored size and then each stored row of an RGB(A) TIFF as packed
    /// RGB (`y`, `width × 3` bytes valid during the call; alpha dropped), top to bottom, and
    /// returns the size and the `Orientation` tag (absent → `.up`). The size is checked against
    /// ``PixelBudget`` first. See ``TIFFRowReader`` for how the rows are decoded.
    package static func readRows(_ data: [UInt8], _ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void)
        throws(CodecError) -> (size: PixelSize, orientation: Orientation) {
        guard TIFFHeader(data) != nil else { throw noHeader }
        // A file in memory is read whatever IFD0 is: its callers have looked at it already.
        guard let reader = try TIFFRowReader(stream: TIFFStream(bytes: data), skippingDNG: false, check: { _, _ throws(CodecError) in }) else {
            preconditionFailure("only a DNG is skipped")
        }
        return try readRows(from: reader, body)
    }

    /// ``readRows(_:_:)`` of the regular file `descriptor` of `fileSize` bytes, read through
    /// `pread` as libtiff asks for its parts (the file is not held whole); nil, with no call,
    /// for a file that does not start as a TIFF and for a DNG (a TIFF with DNGVersion), whose
    /// IFD0 is a preview and not the photo. `check`
    /// sees the stored size and the orientation first, before ``PixelBudget`` and before anything
    /// is allocated for the pixels, and may refuse them.
    package static func readRows(descriptor: Int32, fileSize: Int,
                                 check: (_ size: PixelSize, _ orientation: Orientation) throws(CodecError) -> Void,
                                 _ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void)
        throws(CodecError) -> (size: PixelSize, orientation: Orientation)? {
        guard let reader = try TIFFRowReader(descriptor: descriptor, fileSize: fileSize, check: check) else { return nil }
        return try readRows(from: reader, body)
    }

    private static var noHeader: CodecError { .corruptFile(format: "TIFF", reason: "no TIFF header (\"II*\\0\" or \"MM\\0*\")") }

    /// Every row of `reader`, in order, given to `body`.
    private static func readRows(from reader: TIFFRowReader,
                                 _ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void)
        throws(CodecError) -> (size: PixelSize, orientation: Orientation) {
        let row = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: reader.size.width * 3)
        defer { row.deallocate() }
        for y in 0..<reader.size.height {
            try reader.next(into: row.baseAddress!)
            body(reader.size, y, UnsafeBufferPointer(row))
        }
        return (reader.size, reader.orientation)
    }
}
