import CTIFF
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// The stored rows of a TIFF as packed 8-bit RGB (alpha dropped), pulled one at a time, top
/// to bottom, no orientation applied: two pictures can then be read side by side with neither
/// held whole. Its size and `Orientation` tag (absent → `.up`) are known once it is open,
/// before any row is read.
///
/// Strips of 8-bit RGB (3 samples) or grey (1 sample, each grey g given as g, g, g), contiguous
/// and unsigned, in any compression but old-style JPEG, are read a scanline at a time: the exact
/// bytes libtiff's RGBA reader makes of them, without its 4-byte raster or a band of whole
/// strips. Other layouts go through the RGBA reader, a band of whole strips or tiles (at least
/// 64 rows) at a time.
package final class TIFFRowReader {
    /// The stored size, checked against ``PixelBudget``.
    package let size: PixelSize
    /// IFD0's `Orientation` tag, which a viewer applies to the stored rows.
    package let orientation: Orientation
    private let file: TIFFHandle
    private let layout: Layout
    private var rowsRead = 0
    /// A grey scanline, before it is spread to RGB.
    private var grey: [UInt8] = []
    /// The RGBA reader's current band, allocated at the first row.
    private var raster: [UInt32] = []

    private enum Layout {
        /// Scanlines of 3 (RGB) or 1 (grey) samples a pixel.
        case scanlines(samples: Int)
        /// libtiff's RGBA reader (released with the reader), `bandRows` rows at a time.
        case rgba(UnsafeMutablePointer<TIFFRGBAImage>, bandRows: Int)
    }

    /// The rows of the regular file `descriptor` of `fileSize` bytes, read through `pread` as
    /// libtiff asks for its parts (the file is not held whole; the caller keeps `descriptor`
    /// open while the reader is used, and closes it). Nil for a file that does not start as a
    /// TIFF and for a DNG (a TIFF with DNGVersion), whose IFD0 is a preview and not the photo.
    /// `check` sees the stored size and the orientation first, before ``PixelBudget`` and
    /// before anything is allocated for the pixels, and may refuse them.
    package convenience init?(descriptor: Int32, fileSize: Int,
                              check: (_ size: PixelSize, _ orientation: Orientation) throws(CodecError) -> Void) throws(CodecError) {
        var head = [UInt8](repeating: 0, count: 8)
        guard pread(descriptor, &head, head.count, 0) == head.count, TIFFHeader(head) != nil else { return nil }
        try self.init(stream: TIFFStream(descriptor: descriptor, size: fileSize), skippingDNG: true, check: check)
    }

    /// The rows of the TIFF `stream`; with `skippingDNG`, nil for a file with DNGVersion.
    /// `check` is called before anything is allocated for the pixels.
    init?(stream: TIFFStream, skippingDNG: Bool, check: (PixelSize, Orientation) throws(CodecError) -> Void) throws(CodecError) {
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
        if let samples = Self.scanlineSamples(file, width: size.width) {
            layout = .scanlines(samples: samples)
            if samples == 1 { grey = [UInt8](repeating: 0, count: size.width) }
        } else {
            let image = UnsafeMutablePointer<TIFFRGBAImage>.allocate(capacity: 1)
            image.initialize(to: TIFFRGBAImage())
            guard libtiff.RGBAImageBegin(image, file.tiff, 1, &message) != 0 else {
                image.deallocate()
                throw .tiff(function: "TIFFRGBAImageBegin", message: String(cMessage: message))
            }
            // Asking for the file's own orientation makes libtiff copy the rows as stored (it
            // would otherwise flip some orientations, and it never transposes).
            image.pointee.req_orientation = UInt16((1...8).contains(orientationTag) ? orientationTag : Int(ORIENTATION_TOPLEFT))
            layout = .rgba(image, bandRows: min(size.height, Self.bandRows(file, height: size.height)))
        }
        (self.file, self.size, self.orientation) = (file, size, orientation)
    }

    deinit {
        if case .rgba(let image, _) = layout {
            libtiff.RGBAImageEnd(image)
            image.deallocate()
        }
    }

    /// Decodes the next row into `row` (`size.width × 3` bytes).
    package func next(into row: UnsafeMutablePointer<UInt8>) throws(CodecError) {
        precondition(rowsRead < size.height, "read past the last row")
        switch layout {
        case .scanlines(let samples):
            let ok = samples == 3
                ? libtiff.ReadScanline(file.tiff, row, UInt32(rowsRead), 0)
                : grey.withUnsafeMutableBytes { libtiff.ReadScanline(file.tiff, $0.baseAddress, UInt32(rowsRead), 0) }
            guard ok == 1 else { throw .tiff(function: "TIFFReadScanline", message: file.stream.lastError) }
            if rowsRead % Self.releaseRows == Self.releaseRows - 1 { file.stream.releaseMappedPages() }
            if samples == 1 {
                for x in 0..<size.width { (row[x * 3], row[x * 3 + 1], row[x * 3 + 2]) = (grey[x], grey[x], grey[x]) }
            }
        case .rgba(let image, let bandRows):
            let y = rowsRead % bandRows
            if y == 0 { try readBand(image, rows: min(bandRows, size.height - rowsRead)) }
            raster.withUnsafeBufferPointer { raster in
                for x in 0..<size.width {  // ABGR in a native uint32: R is the low byte
                    let pixel = raster[y * size.width + x]
                    row[x * 3] = UInt8(truncatingIfNeeded: pixel)
                    row[x * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                    row[x * 3 + 2] = UInt8(truncatingIfNeeded: pixel >> 16)
                }
            }
        }
        rowsRead += 1
    }

    /// The RGBA reader's band of `rows` rows from the next row on, into ``raster``.
    private func readBand(_ image: UnsafeMutablePointer<TIFFRGBAImage>, rows: Int) throws(CodecError) {
        if raster.isEmpty, case .rgba(_, let bandRows) = layout {
            // Not zeroed: each band's read writes every pixel of it, or fails.
            raster = [UInt32](unsafeUninitializedCapacity: size.width * bandRows) { _, initialized in initialized = size.width * bandRows }
        }
        image.pointee.row_offset = Int32(rowsRead)
        image.pointee.col_offset = 0
        let ok = raster.withUnsafeMutableBufferPointer { libtiff.RGBAImageGet(image, $0.baseAddress, UInt32(size.width), UInt32(rows)) }
        try file.check(ok, "TIFFRGBAImageGet")
        file.stream.releaseMappedPages()
    }

    /// Rows decoded between two ``TIFFStream/releaseMappedPages()``: the coded bytes of a few
    /// rows stay mapped, not the file.
    static let releaseRows = 64

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
