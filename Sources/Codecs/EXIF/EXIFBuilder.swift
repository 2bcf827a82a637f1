#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CExif
import Imaging

/// Builds the EXIF block photocap writes into JPEG and HEIC files.
package enum EXIFBuilder {
    /// The longest `ImageUniqueID` EXIF allows (32 hex digits plus the NUL).
    static let maximumUniqueIDLength = 32

    /// A TIFF-structured EXIF block (starting with "II*\0"), ready to be wrapped as APP1
    /// ("Exif\0\0" + block) or given to libheif.
    ///
    /// Besides the fields of `metadata` it holds everything `exiftool -validate` expects of a
    /// camera file: ColorSpace = sRGB, ExifVersion 0232, FlashpixVersion 0100,
    /// ComponentsConfiguration, YCbCrPositioning = centred, 72 dpi resolution. A
    /// `thumbnailJPEG` (a complete JPEG file) becomes IFD1, with the same orientation as IFD0.
    package static func tiffBlock(for metadata: EXIFMetadata, thumbnailJPEG: [UInt8]?) throws(CodecError) -> [UInt8] {
        let exif = try EXIFData()
        let stamp = metadata.dateTimeOriginal.map { EXIFTimestamp(date: $0) }
        try addIFD0(metadata, stamp: stamp, to: exif)
        try addExifIFD(metadata, stamp: stamp, to: exif)
        if let location = metadata.location { try addGPS(location, to: exif) }
        if let thumbnailJPEG { try addThumbnail(thumbnailJPEG, orientation: metadata.orientation, to: exif) }
        return try exif.tiffBlock()
    }

    /// IFD0, in tag order.
    private static func addIFD0(_ metadata: EXIFMetadata, stamp: EXIFTimestamp?, to exif: EXIFData) throws(CodecError) {
        if let text = metadata.imageDescription { try exif.addASCII(EXIF_TAG_IMAGE_DESCRIPTION, to: EXIF_IFD_0, text) }
        if let make = metadata.make { try exif.addASCII(EXIF_TAG_MAKE, to: EXIF_IFD_0, make) }
        if let model = metadata.model { try exif.addASCII(EXIF_TAG_MODEL, to: EXIF_IFD_0, model) }
        try exif.addShort(EXIF_TAG_ORIENTATION, to: EXIF_IFD_0, UInt16(metadata.orientation.exifValue))
        try addResolution(to: exif, ifd: EXIF_IFD_0)
        if let software = metadata.software { try exif.addASCII(EXIF_TAG_SOFTWARE, to: EXIF_IFD_0, software) }
        if let stamp { try exif.addASCII(EXIF_TAG_DATE_TIME, to: EXIF_IFD_0, stamp.dateTime) }
        if let artist = metadata.artist { try exif.addASCII(EXIF_TAG_ARTIST, to: EXIF_IFD_0, artist) }
        try exif.addShort(EXIF_TAG_YCBCR_POSITIONING, to: EXIF_IFD_0, 1)
        if let copyright = metadata.copyright { try exif.addASCII(EXIF_TAG_COPYRIGHT, to: EXIF_IFD_0, copyright) }
    }

    /// The Exif sub-IFD: the exposure, the versions, the time with its offset and subseconds,
    /// the colour space, the pixel size and the unique ID.
    private static func addExifIFD(_ metadata: EXIFMetadata, stamp: EXIFTimestamp?, to exif: EXIFData) throws(CodecError) {
        for (tag, value) in try metadata.exposureRationals() {
            let (numerator, denominator) = unsignedRational(value)
            try exif.addRational(ExifTag(rawValue: UInt32(tag)), to: EXIF_IFD_EXIF, numerator, denominator)
        }
        if let iso = metadata.isoSpeed {
            // Values above 65535 are stored as 65535, as the standard says.
            try exif.addShort(EXIF_TAG_ISO_SPEED_RATINGS, to: EXIF_IFD_EXIF, UInt16(clamping: max(iso, 0)))
        }
        try exif.addUndefined(EXIF_TAG_EXIF_VERSION, to: EXIF_IFD_EXIF, Array("0232".utf8))
        if let stamp {
            try exif.addASCII(EXIF_TAG_DATE_TIME_ORIGINAL, to: EXIF_IFD_EXIF, stamp.dateTime)
            try exif.addASCII(EXIF_TAG_OFFSET_TIME, to: EXIF_IFD_EXIF, stamp.offset)
            try exif.addASCII(EXIF_TAG_OFFSET_TIME_ORIGINAL, to: EXIF_IFD_EXIF, stamp.offset)
        }
        // Y, Cb, Cr: the order of the components in the compressed data.
        try exif.addUndefined(EXIF_TAG_COMPONENTS_CONFIGURATION, to: EXIF_IFD_EXIF, [1, 2, 3, 0])
        if let bias = metadata.exposureBias {
            guard bias.isFinite, abs(bias) < 1_000 else { throw .invalidArgument("exposure bias \(bias) EV is out of range") }
            let (numerator, denominator) = signedRational(bias)
            try exif.addSignedRational(EXIF_TAG_EXPOSURE_BIAS_VALUE, to: EXIF_IFD_EXIF, numerator, denominator)
        }
        if let comment = metadata.userComment {
            try exif.addUndefined(EXIF_TAG_USER_COMMENT, to: EXIF_IFD_EXIF, EXIFUserComment.bytes(comment))
        }
        if let stamp {
            try exif.addASCII(EXIF_TAG_SUB_SEC_TIME, to: EXIF_IFD_EXIF, stamp.subseconds)
            try exif.addASCII(EXIF_TAG_SUB_SEC_TIME_ORIGINAL, to: EXIF_IFD_EXIF, stamp.subseconds)
        }
        try exif.addUndefined(EXIF_TAG_FLASH_PIX_VERSION, to: EXIF_IFD_EXIF, Array("0100".utf8))
        try exif.addShort(EXIF_TAG_COLOR_SPACE, to: EXIF_IFD_EXIF, 1)
        if let size = metadata.pixelSize {
            guard !size.isEmpty else { throw .invalidArgument("pixel size \(size) is empty") }
            try exif.addLong(EXIF_TAG_PIXEL_X_DIMENSION, to: EXIF_IFD_EXIF, UInt32(clamping: size.width))
            try exif.addLong(EXIF_TAG_PIXEL_Y_DIMENSION, to: EXIF_IFD_EXIF, UInt32(clamping: size.height))
        }
        if let identifier = metadata.imageUniqueID {
            try exif.addASCII(EXIF_TAG_IMAGE_UNIQUE_ID, to: EXIF_IFD_EXIF, String(identifier.prefix(maximumUniqueIDLength)))
        }
    }

    /// IFD1: the thumbnail (a complete JPEG file), oriented like the main image.
    private static func addThumbnail(_ thumbnail: [UInt8], orientation: Orientation, to exif: EXIFData) throws(CodecError) {
        guard thumbnail.starts(with: [0xFF, 0xD8]) else {
            throw .invalidArgument("the EXIF thumbnail is not a JPEG file")
        }
        try exif.addShort(EXIF_TAG_COMPRESSION, to: EXIF_IFD_1, 6)
        try exif.addShort(EXIF_TAG_ORIENTATION, to: EXIF_IFD_1, UInt16(orientation.exifValue))
        try addResolution(to: exif, ifd: EXIF_IFD_1)
        try exif.setThumbnail(thumbnail)
    }

    /// The GPS IFD of `location`, in tag order: version 2.3, latitude and longitude as
    /// degrees/minutes/seconds with N/S and E/W references, altitude with its above/below sea
    /// level reference, UTC time and date of the fix, processing method, horizontal positioning
    /// error.
    private static func addGPS(_ location: EXIFLocation, to exif: EXIFData) throws(CodecError) {
        try location.validate()
        func tag(_ value: Int32) -> ExifTag { ExifTag(rawValue: UInt32(value)) }
        try exif.add(tag(EXIF_TAG_GPS_VERSION_ID), to: EXIF_IFD_GPS, format: EXIF_FORMAT_BYTE, components: 4, bytes: [2, 3, 0, 0])
        try exif.addASCII(tag(EXIF_TAG_GPS_LATITUDE_REF), to: EXIF_IFD_GPS, location.latitudeReference)
        try exif.addRationals(tag(EXIF_TAG_GPS_LATITUDE), to: EXIF_IFD_GPS, EXIFLocation.degreesMinutesSeconds(location.latitude))
        try exif.addASCII(tag(EXIF_TAG_GPS_LONGITUDE_REF), to: EXIF_IFD_GPS, location.longitudeReference)
        try exif.addRationals(tag(EXIF_TAG_GPS_LONGITUDE), to: EXIF_IFD_GPS, EXIFLocation.degreesMinutesSeconds(location.longitude))
        if let altitude = location.altitude {
            try exif.add(tag(EXIF_TAG_GPS_ALTITUDE_REF), to: EXIF_IFD_GPS, format: EXIF_FORMAT_BYTE, components: 1,
                         bytes: [altitude < 0 ? 1 : 0])
            try exif.addRationals(tag(EXIF_TAG_GPS_ALTITUDE), to: EXIF_IFD_GPS, [EXIFLocation.metres(altitude)])
        }
        let stamp = location.timestamp.map(EXIFLocation.utcStamp)
        if let stamp { try exif.addRationals(tag(EXIF_TAG_GPS_TIME_STAMP), to: EXIF_IFD_GPS, stamp.time) }
        try exif.addUndefined(tag(EXIF_TAG_GPS_PROCESSING_METHOD), to: EXIF_IFD_GPS, EXIFUserComment.bytes(location.processingMethod))
        if let stamp { try exif.addASCII(tag(EXIF_TAG_GPS_DATE_STAMP), to: EXIF_IFD_GPS, stamp.date) }
        if let accuracy = location.horizontalAccuracy {
            try exif.addRationals(tag(EXIF_TAG_GPS_H_POSITIONING_ERROR), to: EXIF_IFD_GPS, [EXIFLocation.metres(accuracy)])
        }
    }

    /// XResolution, YResolution = 72 and ResolutionUnit = inches: the values every camera writes.
    private static func addResolution(to exif: EXIFData, ifd: ExifIfd) throws(CodecError) {
        try exif.addRational(EXIF_TAG_X_RESOLUTION, to: ifd, 72, 1)
        try exif.addRational(EXIF_TAG_Y_RESOLUTION, to: ifd, 72, 1)
        try exif.addShort(EXIF_TAG_RESOLUTION_UNIT, to: ifd, 2)
    }

    /// A positive value as a rational; exposure times below a second become 1/N, as cameras
    /// write them, when that is exact to 0.1 %.
    static func unsignedRational(_ value: Double) -> (UInt32, UInt32) {
        if value < 1 {
            let reciprocal = (1 / value).rounded()
            if reciprocal <= Double(UInt32.max), abs(1 / reciprocal - value) <= value * 0.001 {
                return (1, UInt32(reciprocal))
            }
        }
        let denominator: UInt64 = value < 4_000 ? 1_000_000 : 1
        let numerator = UInt64(min((value * Double(denominator)).rounded(), Double(UInt32.max)))
        let divisor = greatestCommonDivisor(numerator, denominator)
        return (UInt32(numerator / divisor), UInt32(denominator / divisor))
    }

    /// A signed value in hundredths, reduced (−0.33 EV → −33/100, 1 EV → 1/1).
    static func signedRational(_ value: Double) -> (Int32, Int32) {
        let hundredths = Int64((value * 100).rounded())
        let divisor = Int64(greatestCommonDivisor(UInt64(abs(hundredths)), 100))
        return (Int32(hundredths / divisor), Int32(100 / divisor))
    }

    private static func greatestCommonDivisor(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return max(a, 1)
    }
}

/// The EXIF spelling of a moment in the process's local time zone.
package struct EXIFTimestamp {
    /// "YYYY:MM:DD HH:MM:SS".
    let dateTime: String
    /// Milliseconds, three digits.
    let subseconds: String
    /// "+HH:MM" or "-HH:MM".
    let offset: String

    init(date: Date) {
        let time = CalendarTime(date, in: .local)
        dateTime = time.exifDateTime
        subseconds = String(printf: "%03ld", time.millisecond)
        offset = time.exifOffset
    }

    /// The moment a date and time ("YYYY:MM:DD HH:MM:SS") names, with its fraction of a second
    /// (SubSecTime digits) and read at its offset ("+HH:MM"), else in local time; nil without
    /// a valid date and time.
    package static func date(dateTime: String?, subseconds: String?, offset: String?) -> Date? {
        guard let dateTime, dateTime.contains(" "), let time = CalendarTime(exif: dateTime),
              let whole = time.date(in: offset.flatMap(CalendarTime.zone(exifOffset:)) ?? .local) else { return nil }
        let digits = (subseconds ?? "").filter { $0 != " " }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let fraction = Double("0." + digits) else {
            return whole
        }
        return whole.addingTimeInterval(fraction)
    }
}
