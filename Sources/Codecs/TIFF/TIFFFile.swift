import CTIFF
import Imaging

/// Writes and reads baseline RGB TIFF files in memory with libtiff.
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
    /// returns the size and the `Orientation` tag (absent → `.up`). libtiff's RGBA reader
    /// decodes a band of whole strips or tiles at a time (at least 64 rows), so a large picture
    /// is never held as its 4-byte raster. The size is checked against ``PixelBudget`` first.
    package static func readRows(_ data: [UInt8], _ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void)
        throws(CodecError) -> (size: PixelSize, orientation: Orientation) {
        guard TIFFHeader(data) != nil else {
            throw .corruptFile(format: "TIFF", reason: "no TIFF header (\"II*\\0\" or \"MM\\0*\")")
        }
        let stream = TIFFStream(bytes: data)
        let file = try stream.open(mode: "rm")
        var width: UInt32 = 0, height: UInt32 = 0, tag: UInt16 = 0
        guard withUnsafeMutablePointer(to: &width, { file.get(UInt32(TIFFTAG_IMAGEWIDTH), $0) }),
              withUnsafeMutablePointer(to: &height, { file.get(UInt32(TIFFTAG_IMAGELENGTH), $0) }),
              width > 0, height > 0 else {
            throw .corruptFile(format: "TIFF", reason: "no image width or height in IFD0")
        }
        let hasOrientation = withUnsafeMutablePointer(to: &tag) { file.get(UInt32(TIFFTAG_ORIENTATION), $0) }
        let orientationTag = hasOrientation ? Int(tag) : Int(ORIENTATION_TOPLEFT)
        let size = PixelSize(width: Int(width), height: Int(height))
        try PixelBudget.check(size, declaredBy: "TIFF")
        var message = [CChar](repeating: 0, count: 1024)
        var image = TIFFRGBAImage()
        guard libtiff.RGBAImageOK(file.tiff, &message) != 0, libtiff.RGBAImageBegin(&image, file.tiff, 1, &message) != 0 else {
            throw .tiff(function: "TIFFRGBAImageBegin", message: String(cMessage: message))
        }
        defer { libtiff.RGBAImageEnd(&image) }
        // Asking for the file's own orientation makes libtiff copy the rows as stored (it
        // would otherwise flip some orientations, and it never transposes).
        image.req_orientation = UInt16((1...8).contains(orientationTag) ? orientationTag : Int(ORIENTATION_TOPLEFT))
        let bandRows = min(size.height, Self.bandRows(file, height: size.height))
        // Not zeroed: each band's read writes every pixel of it, or fails.
        var raster = [UInt32](unsafeUninitializedCapacity: size.width * bandRows) { _, initialized in initialized = size.width * bandRows }
        var row = [UInt8](repeating: 0, count: size.width * 3)
        var firstRow = 0
        while firstRow < size.height {
            let rows = min(bandRows, size.height - firstRow)
            image.row_offset = Int32(firstRow)
            image.col_offset = 0
            let ok = raster.withUnsafeMutableBufferPointer { libtiff.RGBAImageGet(&image, $0.baseAddress, width, UInt32(rows)) }
            try file.check(ok, "TIFFRGBAImageGet")
            for y in 0..<rows {
                row.withUnsafeMutableBufferPointer { row in
                    for x in 0..<size.width {  // ABGR in a native uint32: R is the low byte
                        let pixel = raster[y * size.width + x]
                        row[x * 3] = UInt8(truncatingIfNeeded: pixel)
                        row[x * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                        row[x * 3 + 2] = UInt8(truncatingIfNeeded: pixel >> 16)
                    }
                }
                row.withUnsafeBufferPointer { body(size, firstRow + y, $0) }
            }
            firstRow += rows
        }
        return (size, Orientation(exifValue: orientationTag))
    }

    /// Rows per band of the RGBA reader: whole strips or tiles (a band that ends inside one
    /// would decode it again for the next), at least 64 rows.
    private static func bandRows(_ file: TIFFHandle, height: Int) -> Int {
        var unit: UInt32 = 0
        let tag = libtiff.IsTiled(file.tiff) != 0 ? TIFFTAG_TILELENGTH : TIFFTAG_ROWSPERSTRIP
        if !withUnsafeMutablePointer(to: &unit, { file.get(UInt32(tag), $0) }) || unit == 0 || Int(unit) > height { return height }
        let unitRows = Int(unit)
        return (64 + unitRows - 1) / unitRows * unitRows
    }
}
