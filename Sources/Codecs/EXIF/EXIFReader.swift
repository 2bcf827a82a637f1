import CExif
import Imaging

/// The EXIF fields of a file, parsed with libexif.
package struct EXIFReader: Sendable {
    /// IFD0 `Orientation`; nil when absent (invalid values 0 and 9+ read as ``Orientation/up``).
    package var orientation: Orientation?
    /// IFD1 (thumbnail) `Orientation`; nil when absent.
    package var thumbnailOrientation: Orientation?
    /// The IFD1 thumbnail, a complete JPEG file.
    package var thumbnailJPEG: [UInt8]?
    /// `PixelXDimension` × `PixelYDimension`, when both are present.
    package var pixelSize: PixelSize?
    /// The camera's fields, typed: make, model, software, the capture date (DateTimeOriginal
    /// with SubSecTimeOriginal and OffsetTimeOriginal, local time without an offset), exposure
    /// time, f-number, ISO, exposure bias and focal length, each nil when absent. The
    /// orientation is ``orientation`` and the size ``pixelSize``.
    package var camera = EXIFMetadata()
    /// Every tag, libexif's tag name → libexif's text for its value (for example
    /// "Orientation": "Right-top"). A tag in several IFDs keeps the value of the first
    /// (IFD0, Exif, GPS, Interoperability, IFD1).
    package var entries: [String: String]

    /// Parses EXIF from a whole JPEG file, an APP1 payload ("Exif\0\0…"), or a bare
    /// TIFF-structured block ("II*\0…" / "MM\0*…").
    package init(data: [UInt8]) throws(CodecError) {
        let block: [UInt8]
        if data.starts(with: [0xFF, 0xD8]) {
            guard let found = try JPEGFile.exifBlock(in: data) else { throw .missingEXIF(format: "JPEG") }
            block = found
        } else if data.starts(with: EXIFData.app1Header) {
            block = Array(data.dropFirst(EXIFData.app1Header.count))
        } else {
            block = data
        }
        guard TIFFHeader(block) != nil else {
            throw .corruptFile(format: "EXIF", reason: "no TIFF header (\"II*\\0\" or \"MM\\0*\") at the start of the EXIF block")
        }
        let exif = try EXIFData(parsing: block)
        let all = exif.entries()
        guard !all.isEmpty else { throw .corruptFile(format: "EXIF", reason: "no readable IFD entries") }

        var entries: [String: String] = [:]
        for entry in all where entries[entry.name] == nil { entries[entry.name] = entry.text }
        self.entries = entries
        func integer(_ tag: ExifTag, in ifd: ExifIfd) -> Int? {
            all.first { $0.ifd == ifd && $0.tag == tag }?.firstInteger
        }
        orientation = integer(EXIF_TAG_ORIENTATION, in: EXIF_IFD_0).map(Orientation.init(exifValue:))
        thumbnailOrientation = integer(EXIF_TAG_ORIENTATION, in: EXIF_IFD_1).map(Orientation.init(exifValue:))
        if let width = integer(EXIF_TAG_PIXEL_X_DIMENSION, in: EXIF_IFD_EXIF),
           let height = integer(EXIF_TAG_PIXEL_Y_DIMENSION, in: EXIF_IFD_EXIF) {
            pixelSize = PixelSize(width: width, height: height)
        }
        thumbnailJPEG = exif.thumbnail
        func text(_ tag: ExifTag, in ifd: ExifIfd) -> String? {
            all.first { $0.ifd == ifd && $0.tag == tag }?.text
        }
        func rational(_ tag: ExifTag) -> Double? {
            all.first { $0.ifd == EXIF_IFD_EXIF && $0.tag == tag }?.firstRational
        }
        camera.make = text(EXIF_TAG_MAKE, in: EXIF_IFD_0)
        camera.model = text(EXIF_TAG_MODEL, in: EXIF_IFD_0)
        camera.software = text(EXIF_TAG_SOFTWARE, in: EXIF_IFD_0)
        camera.dateTimeOriginal = EXIFTimestamp.date(dateTime: text(EXIF_TAG_DATE_TIME_ORIGINAL, in: EXIF_IFD_EXIF),
                                                     subseconds: text(EXIF_TAG_SUB_SEC_TIME_ORIGINAL, in: EXIF_IFD_EXIF),
                                                     offset: text(EXIF_TAG_OFFSET_TIME_ORIGINAL, in: EXIF_IFD_EXIF))
        camera.exposureTime = rational(EXIF_TAG_EXPOSURE_TIME)
        camera.fNumber = rational(EXIF_TAG_FNUMBER)
        camera.isoSpeed = integer(EXIF_TAG_ISO_SPEED_RATINGS, in: EXIF_IFD_EXIF)
        camera.exposureBias = rational(EXIF_TAG_EXPOSURE_BIAS_VALUE)
        camera.focalLength = rational(EXIF_TAG_FOCAL_LENGTH)
    }
}
