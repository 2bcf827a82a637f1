import CTIFF
import FoundationEssentials
import Imaging

/// What a DNG file says about its CFA image, read with libtiff and checked for completeness
/// (every strip or tile of the CFA image lies inside the file) before anything decodes it.
package struct DNGFileInfo: Sendable {
    /// DNGVersion, e.g. [1, 4, 0, 0].
    package let version: [UInt8]
    /// Size of the CFA image (the IFD with NewSubFileType 0).
    package let cfaSize: PixelSize
    /// BitsPerSample of the CFA image (the container: 8 or 16 for photocap's files).
    package let bitsPerSample: Int
    /// The 2×2 CFAPattern as colour indices (0 red, 1 green, 2 blue), row by row; nil when the
    /// file has no 2×2 pattern.
    package let cfaPattern: [UInt8]?
    /// WhiteLevel of the CFA image, when present.
    package let whiteLevel: Int?
    /// The first BlackLevel value of the CFA image, when present.
    package let blackLevel: Double?
    /// The Orientation tag of IFD0 (absent → `.up`): what a viewer applies.
    package let orientation: Orientation
    /// Size of the preview in IFD0, when IFD0 is a preview (NewSubFileType 1).
    package let previewSize: PixelSize?
    /// UniqueCameraModel.
    package let uniqueCameraModel: String?
    /// IFD0 Model.
    package let model: String?
    /// The XMP packet of IFD0, when present.
    package let xmp: String?
    /// EXIF DateTimeOriginal ("YYYY:MM:DD HH:MM:SS"), when present.
    package let dateTimeOriginal: String?
    /// EXIF OffsetTimeOriginal ("+HH:MM"), when present.
    package let offsetTimeOriginal: String?
    /// What an app supplied: Artist, Copyright, ImageDescription, UserComment and the GPS
    /// location (the other fields are left at their defaults).
    package private(set) var suppliedMetadata = EXIFMetadata()
    /// The camera and its exposure as the DNG records them (IFD0 `Make`/`Model`, Exif
    /// `ExposureTime`, `FNumber`, `ISOSpeedRatings`, `FocalLength`, `ExposureBiasValue`), carried
    /// into a developed photo instead of photocap's own.
    package private(set) var cameraTags = EXIFMetadata()

    /// Reads `data`. Throws ``CodecError/unsupportedFormat(reason:)`` for a file that is not a
    /// DNG, and ``CodecError/corruptFile(format:reason:)`` for a damaged or truncated one.
    package init(data: [UInt8]) throws(CodecError) {
        guard TIFFHeader(data) != nil else {
            throw .unsupportedFormat(reason: "not a DNG file: no TIFF header (\"II*\\0\" or \"MM\\0*\")")
        }
        let stream = TIFFStream(bytes: data)
        let file: TIFFHandle
        do {
            file = try stream.open(mode: "r")
        } catch {
            throw .corruptFile(format: "DNG", reason: "libtiff cannot read its first IFD (\(stream.lastError)); the file is truncated or damaged")
        }
        // Closed here, not by a release the optimiser may place before the last C call on it.
        defer { file.close() }
        var versionPointer: UnsafeMutablePointer<UInt8>?
        guard withUnsafeMutablePointer(to: &versionPointer, { file.get(UInt32(TIFFTAG_DNGVERSION), $0) }),
              let versionPointer else {
            throw .unsupportedFormat(reason: "a TIFF file without DNGVersion: not a DNG")
        }
        version = Array(UnsafeBufferPointer(start: versionPointer, count: 4))
        orientation = Orientation(exifValue: Int(file.integer16(TIFFTAG_ORIENTATION) ?? 1))
        uniqueCameraModel = file.text(TIFFTAG_UNIQUECAMERAMODEL)
        model = file.text(TIFFTAG_MODEL)
        cameraTags.make = file.text(TIFFTAG_MAKE)
        cameraTags.model = model
        xmp = file.xmp()

        var exifOffset: UInt64 = 0
        let hasEXIF = withUnsafeMutablePointer(to: &exifOffset) { file.get(UInt32(TIFFTAG_EXIFIFD), $0) }
        var gpsOffset: UInt64 = 0
        let hasGPS = withUnsafeMutablePointer(to: &gpsOffset) { file.get(UInt32(TIFFTAG_GPSIFD), $0) }
        suppliedMetadata.artist = file.text(TIFFTAG_ARTIST)
        suppliedMetadata.copyright = file.text(TIFFTAG_COPYRIGHT)
        suppliedMetadata.imageDescription = file.text(TIFFTAG_IMAGEDESCRIPTION)

        previewSize = try Self.enterCFADirectory(of: file)
        guard let size = file.imageSize else { throw .corruptFile(format: "DNG", reason: "the CFA image has no ImageWidth/ImageLength") }
        cfaSize = size
        bitsPerSample = Int(file.integer16(TIFFTAG_BITSPERSAMPLE) ?? 1)
        let pattern: [UInt8] = file.counted(TIFFTAG_CFAPATTERN)
        cfaPattern = pattern.count == 4 ? pattern : nil
        whiteLevel = (file.counted(TIFFTAG_WHITELEVEL) as [UInt32]).first.map(Int.init)
        blackLevel = (file.counted(TIFFTAG_BLACKLEVEL) as [Float]).first.map(Double.init)

        try Self.checkComplete(file, data: data, size: size, bitsPerSample: bitsPerSample)

        // Read with libtiff rather than libexif, which sees only a file's first 64 KiB (a DNG's
        // IFDs usually come after its image data).
        if hasEXIF, exifOffset > 0, libtiff.ReadEXIFDirectory(file.tiff, exifOffset) == 1 {
            dateTimeOriginal = file.text(EXIFTAG_DATETIMEORIGINAL)
            offsetTimeOriginal = file.knows(UInt32(EXIFTAG_OFFSETTIMEORIGINAL)) ? file.text(EXIFTAG_OFFSETTIMEORIGINAL) : nil
            Self.readExposure(file, into: &cameraTags)
            suppliedMetadata.userComment = EXIFUserComment.text(file.counted(EXIFTAG_USERCOMMENT),
                                                                 littleEndian: libtiff.IsBigEndian(file.tiff) == 0)
        } else {
            (dateTimeOriginal, offsetTimeOriginal) = (nil, nil)
        }
        if hasGPS, gpsOffset > 0, libtiff.ReadGPSDirectory(file.tiff, gpsOffset) == 1 {
            suppliedMetadata.location = file.gpsLocation()
        }
    }

    /// Makes the CFA image's directory current: IFD0 itself, or the SubIFD with NewSubFileType
    /// 0 when IFD0 is a preview, whose size is returned.
    private static func enterCFADirectory(of file: TIFFHandle) throws(CodecError) -> PixelSize? {
        if file.integer32(TIFFTAG_SUBFILETYPE) ?? 0 == 0 { return nil }
        let previewSize = file.imageSize
        var count: UInt16 = 0
        var offsets: UnsafeMutablePointer<UInt64>?
        _ = withUnsafeMutablePointer(to: &count) { count in
            withUnsafeMutablePointer(to: &offsets) { file.get(UInt32(TIFFTAG_SUBIFD), count, $0) }
        }
        let subIFDs = offsets.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
        for offset in subIFDs where libtiff.SetSubDirectory(file.tiff, offset) == 1 {
            if file.integer32(TIFFTAG_SUBFILETYPE) ?? 0 == 0 { return previewSize }
        }
        throw .corruptFile(format: "DNG", reason: "no CFA image (no IFD with NewSubFileType 0)")
    }

    /// IFD0, the CFA image's directory (the current one) and every strip (or tile) of it must lie
    /// inside `data`: libtiff would otherwise skip what is missing with a warning. Raw data that
    /// is missing (strips of no bytes, or fewer than the samples need when they are stored
    /// uncompressed) would develop into a black picture without a word.
    private static func checkComplete(_ file: TIFFHandle, data: [UInt8], size: PixelSize, bitsPerSample: Int) throws(CodecError) {
        let pieces = libtiff.IsTiled(file.tiff) != 0 ? libtiff.NumberOfTiles(file.tiff) : libtiff.NumberOfStrips(file.tiff)
        var end: UInt64 = 0
        for piece in 0..<pieces {
            end = max(end, libtiff.GetStrileOffset(file.tiff, piece) + libtiff.GetStrileByteCount(file.tiff, piece))
        }
        for directory in [TIFFHeader(data)!.firstIFDOffset, Int(libtiff.CurrentDirOffset(file.tiff))] {
            end = max(end, UInt64(TIFFHeader.directoryEnd(data, at: directory) ?? Int.max))
        }
        guard pieces > 0, end <= UInt64(data.count) else {
            throw .corruptFile(format: "DNG", reason: "truncated: its data reaches byte \(end) but the file has \(data.count) bytes")
        }
        // The counts as the file stores them: libtiff puts its own estimate in place of zero
        // counts. A picture past the pixel budget is left to the developer's refusal, which names it.
        guard libtiff.IsTiled(file.tiff) == 0, (try? PixelBudget.check(size)) != nil else { return }
        let stored = (TIFFHeader.integers(data, directoryAt: Int(libtiff.CurrentDirOffset(file.tiff)),
                                          tag: Int(TIFFTAG_STRIPBYTECOUNTS)) ?? []).map(UInt64.init)
        let needed = UInt64(size.width) * UInt64(size.height) * UInt64(bitsPerSample) / 8
        let uncompressed = file.integer16(TIFFTAG_COMPRESSION) ?? 1 == 1
        guard !stored.isEmpty, !stored.contains(0), !uncompressed || stored.reduce(0, +) >= needed else {
            throw .corruptFile(format: "DNG", reason: "its raw data is missing: the CFA image's \(stored.count) strip(s) hold "
                               + "\(stored.reduce(0, +)) bytes, \(size) samples of \(bitsPerSample) bits need \(needed)")
        }
    }

    /// The exposure of the current (EXIF) directory into `tags`.
    private static func readExposure(_ file: TIFFHandle, into tags: inout EXIFMetadata) {
        tags.exposureTime = file.decimals(EXIFTAG_EXPOSURETIME, count: 1)?.first
        tags.fNumber = file.decimals(EXIFTAG_FNUMBER, count: 1)?.first
        tags.focalLength = file.decimals(EXIFTAG_FOCALLENGTH, count: 1)?.first
        tags.exposureBias = file.decimals(EXIFTAG_EXPOSUREBIASVALUE, count: 1)?.first
        tags.isoSpeed = (file.counted(EXIFTAG_ISOSPEEDRATINGS) as [UInt16]).first.map(Int.init)
    }
}

extension TIFFHandle {
    /// A SHORT tag of the current directory.
    fileprivate func integer16(_ tag: Int32) -> UInt16? {
        var value: UInt16 = 0
        return withUnsafeMutablePointer(to: &value) { get(UInt32(tag), $0) } ? value : nil
    }

    /// A LONG tag of the current directory.
    fileprivate func integer32(_ tag: Int32) -> UInt32? {
        var value: UInt32 = 0
        return withUnsafeMutablePointer(to: &value) { get(UInt32(tag), $0) } ? value : nil
    }

    /// An ASCII tag of the current directory.
    fileprivate func text(_ tag: Int32) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard withUnsafeMutablePointer(to: &value, { get(UInt32(tag), $0) }), let value else { return nil }
        return String(cString: value)
    }

    /// A variable-count tag whose count libtiff gives as a 16-bit value; empty when absent.
    fileprivate func counted<Element>(_ tag: Int32) -> [Element] {
        var count: UInt16 = 0
        var values: UnsafeMutablePointer<Element>?
        let present = withUnsafeMutablePointer(to: &count) { count in
            withUnsafeMutablePointer(to: &values) { get(UInt32(tag), count, $0) }
        }
        guard present, let values else { return [] }
        return Array(UnsafeBufferPointer(start: values, count: Int(count)))
    }

    /// The location of the current directory, a GPS IFD; nil without latitude and longitude.
    fileprivate func gpsLocation() -> EXIFLocation? {
        guard let latitude = angle(GPSTAG_LATITUDE, reference: GPSTAG_LATITUDEREF, negative: "S"),
              let longitude = angle(GPSTAG_LONGITUDE, reference: GPSTAG_LONGITUDEREF, negative: "W") else { return nil }
        var location = EXIFLocation(latitude: latitude, longitude: longitude)
        if let method = EXIFUserComment.text(counted(GPSTAG_PROCESSINGMETHOD)), EXIFLocation.processingMethods.contains(method) {
            location.processingMethod = method
        }
        if let altitude = decimals(GPSTAG_ALTITUDE, count: 1)?.first {
            var reference: UInt8 = 0
            _ = withUnsafeMutablePointer(to: &reference) { get(UInt32(GPSTAG_ALTITUDEREF), $0) }
            location.altitude = reference == 1 ? -altitude : altitude
        }
        location.horizontalAccuracy = decimals(GPSTAG_GPSHPOSITIONINGERROR, count: 1)?.first
        if let date = text(GPSTAG_DATESTAMP), let time = decimals(GPSTAG_TIMESTAMP, count: 3) {
            location.timestamp = CalendarTime(exif: date)?.date(in: .utc)?.addingTimeInterval(time[0] * 3600 + time[1] * 60 + time[2])
        }
        return location
    }

    /// Degrees, minutes and seconds as signed degrees, negative when the reference is `negative`.
    private func angle(_ tag: Int32, reference: Int32, negative: String) -> Double? {
        guard let parts = decimals(tag, count: 3) else { return nil }
        let degrees = parts[0] + parts[1] / 60 + parts[2] / 3600
        return text(reference) == negative ? -degrees : degrees
    }

    /// A RATIONAL tag of `count` values, as libtiff stores it for that tag (float or double).
    fileprivate func decimals(_ tag: Int32, count: Int) -> [Double]? {
        let isDouble = libtiff.FieldWithTag(tiff, UInt32(tag)).map { libtiff.FieldSetGetSize($0) == 8 } ?? false
        if count == 1 {
            // Single values come back by value.
            if isDouble {
                var value: Double = 0
                return withUnsafeMutablePointer(to: &value) { get(UInt32(tag), $0) } ? [value] : nil
            }
            var value: Float = 0
            return withUnsafeMutablePointer(to: &value) { get(UInt32(tag), $0) } ? [Double(value)] : nil
        }
        var pointer: UnsafeMutableRawPointer?
        guard withUnsafeMutablePointer(to: &pointer, { get(UInt32(tag), $0) }), let pointer else { return nil }
        if isDouble { return Array(UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: Double.self), count: count)) }
        return UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: Float.self), count: count).map(Double.init)
    }

    /// ImageWidth × ImageLength of the current directory.
    fileprivate var imageSize: PixelSize? {
        var width: UInt32 = 0, height: UInt32 = 0
        guard withUnsafeMutablePointer(to: &width, { get(UInt32(TIFFTAG_IMAGEWIDTH), $0) }),
              withUnsafeMutablePointer(to: &height, { get(UInt32(TIFFTAG_IMAGELENGTH), $0) }),
              width > 0, height > 0 else { return nil }
        return PixelSize(width: Int(width), height: Int(height))
    }
}
