import CTIFF
#if canImport(Glibc)
import Glibc
#endif
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
    /// ``PixelBudget`` first. See ``readRows(from:)`` for how the rows are decoded.
    package static func readRows(_ data: [UInt8], _ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void)
        throws(CodecError) -> (size: PixelSize, orientation: Orientation) {
        guard TIFFHeader(data) != nil else { throw noHeader }
        // A file in memory is read whatever IFD0 is: its callers have looked at it already.
        guard let read = try readRows(from: TIFFStream(bytes: data), skippingDNG: false, check: { _, _ throws(CodecError) in }, body) else {
            preconditionFailure("only a DNG is skipped")
        }
        return read
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
        var head = [UInt8](repeating: 0, count: 8)
        guard pread(descriptor, &head, head.count, 0) == head.count, TIFFHeader(head) != nil else { return nil }
        return try readRows(from: TIFFStream(descriptor: descriptor, size: fileSize), skippingDNG: true, check: check, body)
    }

    private static var noHeader: CodecError { .corruptFile(format: "TIFF", reason: "no TIFF header (\"II*\\0\" or \"MM\\0*\")") }

    /// The rows of the TIFF `stream`, as ``readRows(_:_:)`` gives them. Strips of 8-bit RGB
    /// (3 samples) or grey (1 sample, each grey g given as g, g, g), contiguous and unsigned,
    /// in any compression but old-style JPEG, are read a scanline at a time: the exact bytes
    /// libtiff's RGBA reader makes of them, without its 4-byte raster or a band of whole strips.
    /// Other layouts go through the RGBA reader, a band of whole strips or tiles (at least 64
    /// rows) at a time. With `skippingDNG`, a file with DNGVersion is not read (nil); `check`
    /// is called before anything is allocated for the pixels.
    private static func readRows(from stream: TIFFStream, skippingDNG: Bool,
                                 check: (PixelSize, Orientation) throws(CodecError) -> Void,
                                 _ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void)
        throws(CodecError) -> (size: PixelSize, orientation: Orientation)? {
        // Mapped when read over a descriptor (see TIFFStream).
        let file = try stream.open(mode: "r")
        var width: UInt32 = 0, height: UInt32 = 0, tag: UInt16 = 0
        guard withUnsafeMutablePointer(to: &width, { file.get(UInt32(TIFFTAG_IMAGEWIDTH), $0) }),
              withUnsafeMutablePointer(to: &height, { file.get(UInt32(TIFFTAG_IMAGELENGTH), $0) }),
              width > 0, height > 0 else {
            throw .corruptFile(format: "TIFF", reason: "no image width or height in IFD0")
        }
        let hasOrientation = withUnsafeMutablePointer(to: &tag) { file.get(UInt32(TIFFTAG_ORIENTATION), $0) }
        let orientationTag = hasOrientation ? Int(tag) : Int(ORIENTATION_TOPLEFT)
        let size = PixelSize(width: Int(width), height: Int(height))
        let orientation = Orientation(exifValue: orientationTag)
        if skippingDNG {
            // Room for what libtiff writes whether or not it passes the count first: only
            // whether the tag is there matters.
            var first: UInt64 = 0, second: UInt64 = 0
            let isDNG = withUnsafeMutablePointer(to: &first) { first in
                withUnsafeMutablePointer(to: &second) { file.get(UInt32(TIFFTAG_DNGVERSION), first, $0) }
            }
            if isDNG { return nil }
        }
        // The caller's own limit first, as a decode from memory checks it before the budget.
        try check(size, orientation)
        try PixelBudget.check(size, declaredBy: "TIFF")
        var message = [CChar](repeating: 0, count: 1024)
        // Asked first for every layout, so that a file the RGBA reader refuses is refused alike.
        guard libtiff.RGBAImageOK(file.tiff, &message) != 0 else {
            throw .tiff(function: "TIFFRGBAImageBegin", message: String(cMessage: message))
        }
        if let samples = scanlineSamples(file, width: size.width) {
            try readScanlines(file, size: size, samples: samples, body)
        } else {
            try readRGBA(file, size: size, orientationTag: orientationTag, body)
        }
        return (size, orientation)
    }

    /// The samples per pixel (3 or 1) of a TIFF whose scanlines are exactly its packed RGB or
    /// grey rows: 8-bit unsigned samples in contiguous strips, RGB or min-is-black grey, not
    /// old-style JPEG (whose scanline reading libtiff does not promise); nil for any other.
    private static func scanlineSamples(_ file: TIFFHandle, width: Int) -> Int? {
        func field(_ tag: Int32, default value: UInt16?) -> UInt16? {
            var result: UInt16 = 0
            return withUnsafeMutablePointer(to: &result) { file.get(UInt32(tag), $0) } ? result : value
        }
        guard libtiff.IsTiled(file.tiff) == 0,
              field(TIFFTAG_BITSPERSAMPLE, default: 1) == 8,
              field(TIFFTAG_PLANARCONFIG, default: UInt16(PLANARCONFIG_CONTIG)) == UInt16(PLANARCONFIG_CONTIG),
              field(TIFFTAG_SAMPLEFORMAT, default: UInt16(SAMPLEFORMAT_UINT)) == UInt16(SAMPLEFORMAT_UINT),
              field(TIFFTAG_COMPRESSION, default: UInt16(COMPRESSION_NONE)) != UInt16(COMPRESSION_OJPEG),
              let photometric = field(TIFFTAG_PHOTOMETRIC, default: nil),
              let samples = field(TIFFTAG_SAMPLESPERPIXEL, default: 1) else { return nil }
        let layout = (Int32(photometric), Int(samples))
        guard layout == (PHOTOMETRIC_RGB, 3) || layout == (PHOTOMETRIC_MINISBLACK, 1),
              libtiff.ScanlineSize64(file.tiff) == UInt64(width * Int(samples)) else { return nil }
        return Int(samples)
    }

    /// Rows decoded between two ``TIFFStream/releaseMappedPages()``: the coded bytes of a few
    /// rows stay mapped, not the file.
    static let releaseRows = 64

    /// The rows of a file ``scanlineSamples(_:width:)`` accepts, one `TIFFReadScanline` each.
    private static func readScanlines(_ file: TIFFHandle, size: PixelSize, samples: Int,
                                      _ body: (PixelSize, Int, UnsafeBufferPointer<UInt8>) -> Void) throws(CodecError) {
        var row = [UInt8](repeating: 0, count: size.width * 3)
        var grey = [UInt8](repeating: 0, count: samples == 1 ? size.width : 0)
        for y in 0..<size.height {
            let ok = samples == 3
                ? row.withUnsafeMutableBytes { libtiff.ReadScanline(file.tiff, $0.baseAddress, UInt32(y), 0) }
                : grey.withUnsafeMutableBytes { libtiff.ReadScanline(file.tiff, $0.baseAddress, UInt32(y), 0) }
            guard ok == 1 else { throw .tiff(function: "TIFFReadScanline", message: file.stream.lastError) }
            if y % releaseRows == releaseRows - 1 { file.stream.releaseMappedPages() }
            if samples == 1 {
                row.withUnsafeMutableBufferPointer { row in
                    for x in 0..<size.width { (row[x * 3], row[x * 3 + 1], row[x * 3 + 2]) = (grey[x], grey[x], grey[x]) }
                }
            }
            row.withUnsafeBufferPointer { body(size, y, $0) }
        }
    }

    /// The rows of any file libtiff's RGBA reader reads, a band of whole strips or tiles at a time.
    private static func readRGBA(_ file: TIFFHandle, size: PixelSize, orientationTag: Int,
                                 _ body: (PixelSize, Int, UnsafeBufferPointer<UInt8>) -> Void) throws(CodecError) {
        var message = [CChar](repeating: 0, count: 1024)
        var image = TIFFRGBAImage()
        guard libtiff.RGBAImageBegin(&image, file.tiff, 1, &message) != 0 else {
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
            let ok = raster.withUnsafeMutableBufferPointer { libtiff.RGBAImageGet(&image, $0.baseAddress, UInt32(size.width), UInt32(rows)) }
            try file.check(ok, "TIFFRGBAImageGet")
            file.stream.releaseMappedPages()
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
