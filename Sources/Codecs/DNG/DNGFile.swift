import CTIFF
import Imaging

/// Writes DNG files with libtiff: the Bayer data exactly as the camera delivered it, described
/// by the DNG tags that RAW readers (LibRaw, dcraw, Adobe's converters) need.
///
/// Layout (DNG 1.4, readable by DNG 1.1 readers): IFD0 is the RGB preview (NewSubFileType 1)
/// and holds the camera-wide tags — DNGVersion, UniqueCameraModel, ColorMatrix1,
/// CalibrationIlluminant1, AsShotNeutral, Orientation, Make/Model/Software/DateTime, XMP — and
/// points to the EXIF IFD and, through SubIFDs, to the CFA image: PhotometricInterpretation
/// CFA, CFARepeatPatternDim 2×2, CFAPattern from the pixel format, BlackLevel and WhiteLevel,
/// uncompressed strips. Without a preview the CFA image is IFD0 itself.
///
/// Samples keep their container: 8-bit formats are stored with BitsPerSample 8, the 10-, 12-
/// and 16-bit formats (V4L2 keeps 10 and 12 bits in the low bits of little-endian 16-bit
/// words) with BitsPerSample 16 in a little-endian file, so the stored bytes are the frame's
/// bytes; WhiteLevel (2^bits − 1) states the significant depth.
package enum DNGFile {
    /// DNGVersion: 1.4.0.0.
    package static let version: [UInt8] = [1, 4, 0, 0]
    /// DNGBackwardVersion: 1.1.0.0, the oldest reader version the layout needs.
    package static let backwardVersion: [UInt8] = [1, 1, 0, 0]

    /// Encodes `frame`, which must be a Bayer frame, as a DNG file in memory. CSI-2 packed samples
    /// are stored unpacked, one per 16-bit word, as `RG10`/`RG12` samples are (callers unpack
    /// first, so this is no second pass).
    package static func encode(_ delivered: Frame, metadata: DNGMetadata) throws(CodecError) -> [UInt8] {
        guard let pattern = delivered.format.bayerPattern else {
            throw .invalidArgument("\(delivered.format) is not a Bayer format; DNG holds CFA data")
        }
        let frame: Frame
        do { frame = try delivered.unpackedCSI2() } catch { throw .imaging(error) }
        try validate(metadata, bits: frame.format.bitsPerSample)
        let bytesPerSample = frame.format.bitsPerSample == 8 ? 1 : 2
        let rowBytes = frame.size.width * bytesPerSample
        let stream = TIFFStream()
        stream.bytes.reserveCapacity(rowBytes * frame.size.height + 64 * 1024)
        let file = try stream.open(mode: "wl")  // little-endian classic TIFF, like the V4L2 words

        if let thumbnail = metadata.thumbnail {
            try file.set(UInt32(TIFFTAG_SUBFILETYPE), UInt32(FILETYPE_REDUCEDIMAGE))
            try setImageLayout(file, size: thumbnail.size, bitsPerSample: 8, samples: 3, photometric: Int32(PHOTOMETRIC_RGB))
            try setCameraTags(file, metadata)
            // A placeholder offset that libtiff fills in when the next directory (the CFA image) is written.
            try file.setCounted(TIFFTAG_SUBIFD, [UInt64(0)])
            try file.set(UInt32(TIFFTAG_EXIFIFD), UInt64(0))
            let rowsPerStrip = try setStrips(file, rowBytes: thumbnail.size.width * 3, rows: thumbnail.size.height)
            try file.writeStrips(thumbnail.pixels, rowBytes: thumbnail.size.width * 3, rows: thumbnail.size.height,
                                 rowsPerStrip: rowsPerStrip)
            try file.check(libtiff.WriteDirectory(file.tiff), "TIFFWriteDirectory")
            try file.set(UInt32(TIFFTAG_SUBFILETYPE), UInt32(0))
            try writeCFAImage(frame, pattern: pattern, rowBytes: rowBytes, metadata: metadata, into: file)
        } else {
            try file.set(UInt32(TIFFTAG_SUBFILETYPE), UInt32(0))
            try setCameraTags(file, metadata)
            try file.set(UInt32(TIFFTAG_EXIFIFD), UInt64(0))
            try writeCFAImage(frame, pattern: pattern, rowBytes: rowBytes, metadata: metadata, into: file)
        }
        try file.writeEXIFDirectory(metadata.exif, colorSpace: nil)
        file.close()
        guard stream.errors.isEmpty else { throw .tiff(function: "TIFFClose", message: stream.lastError) }
        var bytes = stream.bytes
        if metadata.thumbnail != nil {
            // libtiff stores SubIFDs with field type IFD (13); TIFF-EP allows it, but DNG writers
            // use LONG (4) and exiftool -validate flags anything else. The four bytes are the same.
            guard TIFFHeader.retypeFirstIFDEntry(&bytes, tag: Int(TIFFTAG_SUBIFD), from: Int(TIFF_IFD.rawValue),
                                                 to: Int(TIFF_LONG.rawValue)) else {
                throw .tiff(function: "TIFFWriteDirectory", message: "IFD0 has no SubIFDs entry of type IFD")
            }
        }
        return bytes
    }

    private static func validate(_ metadata: DNGMetadata, bits: Int) throws(CodecError) {
        let matrix = metadata.colorMatrix
        guard matrix.count == 9, matrix.allSatisfy(\.isFinite), matrix.contains(where: { $0 != 0 }) else {
            throw .invalidArgument("a DNG ColorMatrix1 needs nine finite values, not all zero; got \(matrix)")
        }
        let neutral = metadata.asShotNeutral
        guard neutral.count == 3, neutral.allSatisfy({ $0 > 0 && $0 <= 1 }) else {
            throw .invalidArgument("AsShotNeutral needs three values in (0, 1]; got \(neutral)")
        }
        guard (0..<(1 << bits) - 1).contains(metadata.blackLevel) else {
            throw .invalidArgument("black level \(metadata.blackLevel) is outside 0..<\((1 << bits) - 1) for \(bits)-bit samples")
        }
        if let thumbnail = metadata.thumbnail, thumbnail.size.isEmpty {
            throw .invalidArgument("empty DNG preview \(thumbnail.size)")
        }
    }

    /// Tags that describe the camera and the capture: IFD0's, whichever image it holds.
    private static func setCameraTags(_ file: TIFFHandle, _ metadata: DNGMetadata) throws(CodecError) {
        try file.setArray(TIFFTAG_DNGVERSION, version)
        try file.setArray(TIFFTAG_DNGBACKWARDVERSION, backwardVersion)
        try file.setText(TIFFTAG_UNIQUECAMERAMODEL, metadata.uniqueCameraModel)
        try file.setCounted(TIFFTAG_COLORMATRIX1, metadata.colorMatrix.map(Float.init))
        try file.set(UInt32(TIFFTAG_CALIBRATIONILLUMINANT1), Int32(metadata.calibrationIlluminant))
        try file.setCounted(TIFFTAG_ASSHOTNEUTRAL, metadata.asShotNeutral.map(Float.init))
        try file.set(UInt32(TIFFTAG_ORIENTATION), Int32(metadata.exif.orientation.exifValue))
        try file.setIdentification(metadata.exif)
        try file.setXMP(metadata.xmp)
    }

    /// The CFA image's tags and data, as the current directory, then written.
    private static func writeCFAImage(_ frame: Frame, pattern: FramePixelFormat.BayerPattern, rowBytes: Int,
                                      metadata: DNGMetadata, into file: TIFFHandle) throws(CodecError) {
        let bits = frame.format.bitsPerSample
        try setImageLayout(file, size: frame.size, bitsPerSample: bits == 8 ? 8 : 16, samples: 1,
                           photometric: Int32(PHOTOMETRIC_CFA))
        try file.setArray(TIFFTAG_CFAREPEATPATTERNDIM, [UInt16(2), 2])
        try file.setCounted(TIFFTAG_CFAPATTERN, pattern.colorIndices)
        try file.setCounted(TIFFTAG_CFAPLANECOLOR, [UInt8(0), 1, 2])
        try file.set(UInt32(TIFFTAG_CFALAYOUT), Int32(1))  // rectangular
        try file.setArray(TIFFTAG_BLACKLEVELREPEATDIM, [UInt16(1), 1])
        try file.setCounted(TIFFTAG_BLACKLEVEL, [Float(metadata.blackLevel)])
        try file.setCounted(TIFFTAG_WHITELEVEL, [UInt32((1 << bits) - 1)])
        let rowsPerStrip = try setStrips(file, rowBytes: rowBytes, rows: frame.size.height)
        try frame.storage.withUnsafeBytes { (bytes) throws(CodecError) in
            try file.writeStrips(bytes, bytesPerRow: frame.bytesPerRow, rowBytes: rowBytes, rows: frame.size.height,
                                 rowsPerStrip: rowsPerStrip)
        }
        try file.check(libtiff.WriteDirectory(file.tiff), "TIFFWriteDirectory")
    }

    private static func setImageLayout(_ file: TIFFHandle, size: PixelSize, bitsPerSample: Int, samples: Int,
                                       photometric: Int32) throws(CodecError) {
        guard !size.isEmpty, size.width <= Int(UInt32.max), size.height <= Int(UInt32.max) else {
            throw .invalidArgument("invalid DNG image size \(size)")
        }
        try file.set(UInt32(TIFFTAG_IMAGEWIDTH), UInt32(size.width))
        try file.set(UInt32(TIFFTAG_IMAGELENGTH), UInt32(size.height))
        try file.set(UInt32(TIFFTAG_BITSPERSAMPLE), Int32(bitsPerSample))
        try file.set(UInt32(TIFFTAG_SAMPLESPERPIXEL), Int32(samples))
        try file.set(UInt32(TIFFTAG_PHOTOMETRIC), photometric)
        try file.set(UInt32(TIFFTAG_PLANARCONFIG), Int32(PLANARCONFIG_CONTIG))
        try file.set(UInt32(TIFFTAG_COMPRESSION), Int32(COMPRESSION_NONE))
    }

    /// Sets RowsPerStrip for strips of about ``TIFFFile/stripByteTarget`` bytes and returns it.
    private static func setStrips(_ file: TIFFHandle, rowBytes: Int, rows: Int) throws(CodecError) -> Int {
        let rowsPerStrip = min(rows, max(1, TIFFFile.stripByteTarget / rowBytes))
        try file.set(UInt32(TIFFTAG_ROWSPERSTRIP), UInt32(rowsPerStrip))
        return rowsPerStrip
    }
}
