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
        guard !size.isEmpty, size.width <= Int(UInt32.max), size.height <= Int(UInt32.max) else {
            throw .invalidArgument("invalid TIFF size \(size)")
        }
        let rowBytes = size.width * 3
        guard rgb.count == rowBytes * size.height else {
            throw .invalidArgument("\(rgb.count) bytes are not \(size) packed RGB (\(rowBytes * size.height) bytes)")
        }
        let stream = TIFFMemoryStream()
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
        try file.writeStrips(rgb, rowBytes: rowBytes, rows: size.height, rowsPerStrip: rowsPerStrip)
        try file.check(libtiff.WriteDirectory(file.tiff), "TIFFWriteDirectory")
        try file.writeEXIFDirectory(metadata, colorSpace: 1)
        file.close()
        guard stream.errors.isEmpty else { throw .tiff(function: "TIFFClose", message: stream.lastError) }
        return stream.bytes
    }

    /// Reads an RGB(A) TIFF: its stored size, its `Orientation` tag (absent → `.up`), its
    /// stored pixels as packed RGB (alpha dropped). Any layout libtiff's RGBA reader
    /// understands is accepted. The declared size is checked against ``PixelBudget`` before
    /// the raster is allocated.
    package static func read(_ data: [UInt8]) throws(CodecError) -> (size: PixelSize, orientation: Orientation, rgb: [UInt8]) {
        guard TIFFHeader(data) != nil else {
            throw .corruptFile(format: "TIFF", reason: "no TIFF header (\"II*\\0\" or \"MM\\0*\")")
        }
        let stream = TIFFMemoryStream(bytes: data)
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
        // Asking for the file's own orientation makes libtiff copy the rows as stored (it
        // would otherwise flip some orientations, and it never transposes).
        let requested = (1...8).contains(orientationTag) ? orientationTag : Int(ORIENTATION_TOPLEFT)
        var ok: Int32 = 0
        // Not zeroed first: a read that succeeds writes every pixel, and a 200-byte file that
        // declares 16384x16384 fails at its first strip having touched a few pages of the
        // raster, not all of its 1 GB.
        let raster = [UInt32](unsafeUninitializedCapacity: size.area) { buffer, initialized in
            ok = libtiff.ReadRGBAImageOriented(file.tiff, width, height, buffer.baseAddress, Int32(requested), 1)
            initialized = ok != 0 ? size.area : 0
        }
        try file.check(ok, "TIFFReadRGBAImageOriented")
        var rgb = [UInt8](repeating: 0, count: size.area * 3)
        for (index, pixel) in raster.enumerated() {  // ABGR in a native uint32: R is the low byte
            rgb[index * 3] = UInt8(truncatingIfNeeded: pixel)
            rgb[index * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
            rgb[index * 3 + 2] = UInt8(truncatingIfNeeded: pixel >> 16)
        }
        return (size, Orientation(exifValue: orientationTag), rgb)
    }
}
