import CTIFF
import Imaging

/// Metadata shared by the TIFF and DNG writers: IFD0's text tags and the EXIF sub-IFD.
extension TIFFHandle {
    /// Make, Model, Software, DateTime, ImageDescription, Artist and Copyright of `metadata` in
    /// the current directory, and a placeholder GPSIFD tag when it has a location (so IFD0 keeps
    /// its size when ``writeEXIFDirectory(_:colorSpace:)`` fills in the offset).
    func setIdentification(_ metadata: EXIFMetadata) throws(CodecError) {
        try setText(TIFFTAG_MAKE, metadata.make)
        try setText(TIFFTAG_MODEL, metadata.model)
        try setText(TIFFTAG_SOFTWARE, metadata.software)
        try setText(TIFFTAG_DATETIME, metadata.dateTimeOriginal.map { EXIFTimestamp(date: $0).dateTime })
        try setText(TIFFTAG_IMAGEDESCRIPTION, metadata.imageDescription)
        try setText(TIFFTAG_ARTIST, metadata.artist)
        try setText(TIFFTAG_COPYRIGHT, metadata.copyright)
        if let location = metadata.location {
            try location.validate()
            try set(UInt32(TIFFTAG_GPSIFD), UInt64(0))
        }
    }

    /// `packet` as the current directory's `XMLPacket` tag (700); nothing when it is nil.
    func setXMP(_ packet: String?) throws(CodecError) {
        guard let packet else { return }
        var bytes = Array(packet.utf8)
        let ok = bytes.withUnsafeMutableBufferPointer {
            setField(UInt32(TIFFTAG_XMLPACKET), [UInt32($0.count), $0.baseAddress!])
        }
        try check(ok, tag: UInt32(TIFFTAG_XMLPACKET))
    }

    /// The current directory's `XMLPacket` tag (700) as text; nil when it has none.
    func xmp() -> String? {
        var count: UInt32 = 0
        var bytes: UnsafeMutableRawPointer?
        guard withUnsafeMutablePointer(to: &count, { count in
            withUnsafeMutablePointer(to: &bytes) { get(UInt32(TIFFTAG_XMLPACKET), count, $0) }
        }), let bytes else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
    }

    /// Writes the EXIF sub-IFD of `metadata` (capture time, exposure time, aperture, focal length, ISO, exposure bias,
    /// unique ID, versions; ColorSpace when `colorSpace` is given), then points IFD0's ExifIFD
    /// tag at it and rewrites IFD0.
    ///
    /// IFD0 must already be written, with a placeholder ExifIFD tag so it keeps its size.
    func writeEXIFDirectory(_ metadata: EXIFMetadata, colorSpace: Int32?) throws(CodecError) {
        // TIFFCreateEXIFDirectory returns 0 on success (unlike most of libtiff) and cannot fail.
        _ = libtiff.CreateEXIFDirectory(tiff)
        for (tag, value) in try metadata.exposureRationals() { try set(UInt32(tag), value) }
        if let iso = metadata.isoSpeed {
            var value = UInt16(clamping: max(iso, 0))
            let ok = withUnsafeMutablePointer(to: &value) { setField(UInt32(EXIFTAG_ISOSPEEDRATINGS), [Int32(1), $0]) }
            try check(ok, tag: UInt32(EXIFTAG_ISOSPEEDRATINGS))
        }
        try setArray(EXIFTAG_EXIFVERSION, Array("0232".utf8))
        if let stamp = metadata.dateTimeOriginal.map({ EXIFTimestamp(date: $0) }) {
            try setText(EXIFTAG_DATETIMEORIGINAL, stamp.dateTime)
            if knows(UInt32(EXIFTAG_OFFSETTIMEORIGINAL)) {
                try setText(EXIFTAG_OFFSETTIMEORIGINAL, stamp.offset)
            }
            try setText(EXIFTAG_SUBSECTIMEORIGINAL, stamp.subseconds)
        }
        if let bias = metadata.exposureBias {
            guard bias.isFinite else { throw .invalidArgument("exposure bias \(bias) EV is not finite") }
            try set(UInt32(EXIFTAG_EXPOSUREBIASVALUE), bias)
        }
        try setArray(EXIFTAG_FLASHPIXVERSION, Array("0100".utf8))
        if let colorSpace { try set(UInt32(EXIFTAG_COLORSPACE), colorSpace) }
        if let identifier = metadata.imageUniqueID {
            try setText(EXIFTAG_IMAGEUNIQUEID, String(identifier.prefix(EXIFBuilder.maximumUniqueIDLength)))
        }
        if let comment = metadata.userComment {
            let littleEndian = libtiff.IsBigEndian(tiff) == 0
            try setCounted(EXIFTAG_USERCOMMENT, EXIFUserComment.bytes(comment, littleEndian: littleEndian))
        }
        var exifOffset: UInt64 = 0
        try check(libtiff.WriteCustomDirectory(tiff, &exifOffset), "TIFFWriteCustomDirectory")
        let gpsOffset = try metadata.location.map { (location) throws(CodecError) in try writeGPSDirectory(location) }
        try check(libtiff.SetDirectory(tiff, 0), "TIFFSetDirectory")
        try set(UInt32(TIFFTAG_EXIFIFD), exifOffset)
        if let gpsOffset { try set(UInt32(TIFFTAG_GPSIFD), gpsOffset) }
        try check(libtiff.RewriteDirectory(tiff), "TIFFRewriteDirectory")
    }

    /// Writes the GPS IFD of `location` (the tags ``EXIFBuilder`` writes for JPEG and HEIC)
    /// and returns its offset.
    private func writeGPSDirectory(_ location: EXIFLocation) throws(CodecError) -> UInt64 {
        try location.validate()
        _ = libtiff.CreateGPSDirectory(tiff)
        try setArray(Int32(GPSTAG_VERSIONID), [UInt8(2), 3, 0, 0])
        try setText(Int32(GPSTAG_LATITUDEREF), location.latitudeReference)
        try setRationals(GPSTAG_LATITUDE, EXIFLocation.degreesMinutesSeconds(location.latitude))
        try setText(Int32(GPSTAG_LONGITUDEREF), location.longitudeReference)
        try setRationals(GPSTAG_LONGITUDE, EXIFLocation.degreesMinutesSeconds(location.longitude))
        if let altitude = location.altitude {
            try set(UInt32(GPSTAG_ALTITUDEREF), Int32(altitude < 0 ? 1 : 0))
            try set(UInt32(GPSTAG_ALTITUDE), abs(altitude))
        }
        if let stamp = location.timestamp.map(EXIFLocation.utcStamp) {
            try setRationals(GPSTAG_TIMESTAMP, stamp.time)
        }
        try setCounted(GPSTAG_PROCESSINGMETHOD, EXIFUserComment.bytes(location.processingMethod))
        if let stamp = location.timestamp.map(EXIFLocation.utcStamp) {
            try setText(Int32(GPSTAG_DATESTAMP), stamp.date)
        }
        if let accuracy = location.horizontalAccuracy { try set(UInt32(GPSTAG_GPSHPOSITIONINGERROR), accuracy) }
        var offset: UInt64 = 0
        try check(libtiff.WriteCustomDirectory(tiff, &offset), "TIFFWriteCustomDirectory")
        return offset
    }

    /// A fixed-count RATIONAL array tag, given as libtiff stores it for that tag (float or
    /// double; libtiff turns it back into rationals when writing).
    private func setRationals(_ tag: Int32, _ values: [(UInt32, UInt32)]) throws(CodecError) {
        let decimals = values.map { Double($0.0) / Double($0.1) }
        let field = libtiff.FieldWithTag(tiff, UInt32(tag))
        if let field, libtiff.FieldSetGetSize(field) == 8 {
            try setArray(tag, decimals)
        } else {
            try setArray(tag, decimals.map(Float.init))
        }
    }

    /// An ASCII tag; nil sets nothing, non-ASCII characters become "?".
    func setText(_ tag: Int32, _ text: String?) throws(CodecError) {
        guard let text else { return }
        let ascii = String(decoding: text.utf8.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        let ok = ascii.withCString { setField(UInt32(tag), [$0]) }
        try check(ok, tag: UInt32(tag))
    }

    /// Writes `rows` rows of `rowBytes` bytes each, which lie `bytesPerRow` apart in `bytes`,
    /// as strips of `rowsPerStrip` rows (padding at the ends of rows is left out).
    func writeStrips(_ bytes: UnsafeRawBufferPointer, bytesPerRow: Int, rowBytes: Int, rows: Int,
                     rowsPerStrip: Int) throws(CodecError) {
        try writeStrips(rowBytes: rowBytes, rows: rows, rowsPerStrip: rowsPerStrip) { range, strip in
            if bytesPerRow == rowBytes {
                strip.baseAddress!.copyMemory(from: bytes.baseAddress! + range.lowerBound * rowBytes, byteCount: range.count * rowBytes)
                return
            }
            for (index, row) in range.enumerated() {
                (strip.baseAddress! + index * rowBytes).copyMemory(from: bytes.baseAddress! + row * bytesPerRow, byteCount: rowBytes)
            }
        }
    }

    /// Writes `rows` rows of `rowBytes` bytes each as strips of `rowsPerStrip` rows, each strip's
    /// packed rows written by `fill` (rows `range` into the strip's buffer) just before it is
    /// coded: the picture need never be held whole in the strips' layout.
    func writeStrips(rowBytes: Int, rows: Int, rowsPerStrip: Int,
                     fill: (_ range: Range<Int>, _ strip: UnsafeMutableRawBufferPointer) throws(CodecError) -> Void) throws(CodecError) {
        // libtiff's encoders may modify the buffer they are given (predictor, byte swapping).
        let strip = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, rowsPerStrip * rowBytes), alignment: 64)
        defer { strip.deallocate() }
        for index in 0..<(rows + rowsPerStrip - 1) / rowsPerStrip {
            let firstRow = index * rowsPerStrip
            let stripRows = min(rowsPerStrip, rows - firstRow)
            try fill(firstRow..<(firstRow + stripRows), UnsafeMutableRawBufferPointer(rebasing: strip[0..<(stripRows * rowBytes)]))
            guard libtiff.WriteEncodedStrip(tiff, UInt32(index), strip.baseAddress!, tmsize_t(stripRows * rowBytes)) == stripRows * rowBytes else {
                throw .tiff(function: "TIFFWriteEncodedStrip", message: stream.lastError)
            }
        }
    }

    /// Writes packed rows of `rowBytes` bytes from an array, as strips of `rowsPerStrip` rows.
    func writeStrips(_ bytes: [UInt8], rowBytes: Int, rows: Int, rowsPerStrip: Int) throws(CodecError) {
        // Array.withUnsafeBytes rethrows untyped errors: carry the typed one out by value.
        let failure: CodecError? = bytes.withUnsafeBytes { buffer in
            do throws(CodecError) {
                try writeStrips(buffer, bytesPerRow: rowBytes, rowBytes: rowBytes, rows: rows, rowsPerStrip: rowsPerStrip)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// A variable-count tag whose count libtiff takes as a 16-bit value before the array.
    func setCounted<Element>(_ tag: Int32, _ values: [Element]) throws(CodecError) {
        var values = values
        let ok = values.withUnsafeMutableBufferPointer { setField(UInt32(tag), [Int32($0.count), $0.baseAddress!]) }
        try check(ok, tag: UInt32(tag))
    }

    /// A fixed-count array tag: libtiff takes only the pointer.
    func setArray<Element>(_ tag: Int32, _ values: [Element]) throws(CodecError) {
        var values = values
        let ok = values.withUnsafeMutableBufferPointer { setField(UInt32(tag), [$0.baseAddress!]) }
        try check(ok, tag: UInt32(tag))
    }
}
