import Imaging

/// What an image file says about its pixels and orientation, read without decoding the image.
public struct ImageFileInfo: Sendable {
    /// The format, from the file's magic bytes.
    public var format: ImageFileFormat
    /// Size of the pixels as stored (for a DNG, of its CFA image).
    public var storedSize: PixelSize
    /// What a viewer does to show the image upright: the EXIF/TIFF `Orientation` for JPEG, TIFF
    /// and DNG (absent → `.up`); the `irot`/`imir` properties for HEIC.
    public var orientation: Orientation
    /// The EXIF `Orientation` when the file has one (for HEIC, the one inside its Exif item;
    /// for TIFF/DNG, the IFD0 tag).
    public var exifOrientation: Orientation?
    /// Size as a viewer shows it: `orientation` applied to `storedSize`.
    public var displayedSize: PixelSize
    /// Stored size of the thumbnail: the EXIF IFD1 thumbnail of a JPEG, the thumbnail item of
    /// a HEIC, the IFD0 preview of a DNG; nil when there is none or it cannot be decoded.
    public var thumbnailSize: PixelSize?
    /// Every EXIF tag (``EXIFReader/entries``); empty when the file has no EXIF.
    public var exif: [String: String]
    /// Whether the file's image data stops before the image does (a JPEG cut short).
    public var isTruncated = false

    /// Sniffs the format of `data` from its magic bytes and reads the fields.
    ///
    /// Throws ``CodecError/unsupportedFormat(reason:)`` for anything but JPEG, HEIC, TIFF and
    /// DNG, and ``CodecError/corruptFile(format:reason:)`` when the file is truncated or malformed.
    /// A JPEG whose data stops before its image does is refused with
    /// ``CodecError/truncated(format:bytes:)`` unless `acceptingTruncatedJPEG`; then
    /// ``isTruncated`` says so.
    public init(data: [UInt8], acceptingTruncatedJPEG: Bool = false) throws(CodecError) {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            try self.init(jpeg: data, acceptingTruncation: acceptingTruncatedJPEG)
        } else if let brands = Self.ftypBrands(data) {
            let hevcBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
            guard !brands.isDisjoint(with: hevcBrands) else {
                let kind = brands.contains("avif") || brands.contains("avis") ? "AVIF" : "an ISO media file"
                throw .unsupportedFormat(reason: "\(kind) (brands \(brands.sorted().joined(separator: ", ").escapingControlCharacters)), not HEIC")
            }
            try self.init(heic: data)
        } else if let ifd0 = TIFFHeader.firstIFDIntegers(data) {
            try self.init(tiff: data, ifd0: ifd0)
        } else if TIFFHeader(data) != nil {
            throw .corruptFile(format: "TIFF", reason: "IFD0 lies outside the file")
        } else {
            let head = data.prefix(8).map { String($0, radix: 16) }.joined(separator: " ")
            throw .unsupportedFormat(reason: "unknown magic bytes [\(head)]: not JPEG, HEIC or TIFF")
        }
    }

    private init(jpeg data: [UInt8], acceptingTruncation: Bool) throws(CodecError) {
        let segments = try JPEGFile.headerSegments(of: data)
        // No EOI after the first scan: the file was cut short.
        isTruncated = JPEGFile.endOfImage(in: data, from: segments.scanStart) == nil
        if isTruncated && !acceptingTruncation { throw .truncated(format: "JPEG", bytes: data.count) }
        let decoder = try JPEGDecoder()
        format = .jpeg
        storedSize = try decoder.header(data).size
        if let block = try JPEGFile.exifBlock(in: data) {
            let reader = try EXIFReader(data: block)
            exif = reader.entries
            exifOrientation = reader.orientation
            // A thumbnail that is not a JPEG (cameras write placeholders such as "<Dummy
            // thumbnail image data>") has no size; it is no reason to refuse the picture.
            thumbnailSize = reader.thumbnailJPEG.flatMap { try? decoder.header($0).size }
        } else {
            exif = [:]
        }
        orientation = exifOrientation ?? .up
        displayedSize = orientation.apply(to: storedSize)
    }

    private init(heic data: [UInt8]) throws(CodecError) {
        let info = try HEICFileInfo(data: data)
        format = .heic
        storedSize = info.storedSize
        orientation = info.orientation
        thumbnailSize = info.thumbnailSize
        if let block = info.exifBlock {
            let reader = try EXIFReader(data: block)
            exif = reader.entries
            exifOrientation = reader.orientation
        } else {
            exif = [:]
        }
        // libheif's size after every transformation: irot/imir, and the clean aperture (clap)
        // that crops the coded picture (a 451x461 photo is often coded 452x462).
        displayedSize = info.displayedSize
    }

    private init(tiff data: [UInt8], ifd0: [Int: Int]) throws(CodecError) {
        // Tags: 256 ImageWidth, 257 ImageLength, 274 Orientation, 50706 DNGVersion.
        guard let width = ifd0[256], let height = ifd0[257], width > 0, height > 0 else {
            throw .corruptFile(format: "TIFF", reason: "IFD0 has no ImageWidth/ImageLength")
        }
        format = TIFFHeader.isDNG(ifd0) ? .dng : .tiff
        if format == .dng {
            // IFD0 of a DNG is usually the preview; the photo is the CFA image.
            let dng = try DNGFileInfo(data: data)
            storedSize = dng.cfaSize
            thumbnailSize = dng.previewSize
        } else {
            storedSize = PixelSize(width: width, height: height)
        }
        exifOrientation = ifd0[274].map(Orientation.init(exifValue:))
        orientation = exifOrientation ?? .up
        displayedSize = orientation.apply(to: storedSize)
        // A TIFF file is itself an EXIF structure; tags libexif cannot read are not an error here.
        exif = (try? EXIFReader(data: data))?.entries ?? [:]
    }

    /// The major and compatible brands of an ISO media file's leading `ftyp` box.
    private static func ftypBrands(_ data: [UInt8]) -> Set<String>? {
        guard data.count >= 16, data[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let size = data[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let end = min(max(size, 16), data.count)
        var brands: Set<String> = [String(decoding: data[8..<12], as: UTF8.self)]
        var position = 16
        while position + 4 <= end {
            brands.insert(String(decoding: data[position..<(position + 4)], as: UTF8.self))
            position += 4
        }
        return brands
    }
}
