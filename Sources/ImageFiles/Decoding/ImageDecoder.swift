import Codecs
import FoundationEssentials
import Imaging

/// Reads a JPEG, PNG, HEIC (HEIF) or TIFF picture into pixels, as a viewer shows it (its orientation
/// applied) or as stored, so an app can read a picture (a portrait for a scripted scene, a
/// reference photo) without the testing product.
///
/// ```swift
/// let decoded = try ImageDecoder().decode(fileAt: "portrait.jpg")
/// print(decoded.format, decoded.image.size, decoded.fileOrientation)
/// ```
///
/// The size the file declares is checked against ``maximumPixelCount`` before anything is
/// allocated for its pixels, so a small file that declares a huge picture fails at once with
/// ``ImageDecodingError/Code/tooManyPixels(size:limit:)``. Which orientation applies:
/// - JPEG: the EXIF `Orientation`; TIFF: its `Orientation` tag;
/// - HEIC (and AVIF where libheif has an AV1 decoder): the `irot`/`imir` properties (libheif
///   also applies the clean aperture), as the HEIF rule says; an EXIF orientation inside is
///   informative only;
/// - PNG: none (`.up`).
///
/// DNG (RAW sensor data) is refused with ``ImageDecodingError/Code/unsupportedFormat(reason:)``.
public struct ImageDecoder: Sendable {
    /// Whether the file's orientation is applied (the picture as a viewer shows it; the
    /// default) or the pixels are kept as stored.
    public var appliesOrientation: Bool
    /// The largest picture decoded, in pixels (width × height of the stored picture), checked
    /// before allocating. The process-wide ``PixelBudget/maximumPixels`` and
    /// ``PixelBudget/memory`` apply as well.
    public var maximumPixelCount: Int

    /// A decoder that applies the file's orientation unless `appliesOrientation` is false, and
    /// refuses pictures of more than `maximumPixelCount` pixels.
    public init(appliesOrientation: Bool = true, maximumPixelCount: Int = PixelBudget.maximumPixels) {
        self.appliesOrientation = appliesOrientation
        self.maximumPixelCount = maximumPixelCount
    }

    /// Reads and decodes the file at `path`; a TIFF is read as it is decoded, not held whole.
    public func decode(fileAt path: String) throws(ImageDecodingError) -> DecodedImage {
        if let decoded = try decodeTIFF(fileAt: path) { return decoded }
        let bytes: [UInt8]
        do { bytes = try InputFile.read(path) } catch { throw ImageDecodingError(.unreadable(error), name: path) }
        return try decode(bytes: bytes, name: path)
    }

    /// Reads and decodes the file at `url` (a file URL).
    public func decode(fileAt url: URL) throws(ImageDecodingError) -> DecodedImage {
        try decode(fileAt: url.path)
    }

    /// Decodes a whole file's bytes; `name` is what errors call them.
    public func decode(_ data: Data, name: String = "image data") throws(ImageDecodingError) -> DecodedImage {
        try decode(bytes: [UInt8](data), name: name)
    }

    /// Decodes a whole file's bytes already held as an array (no copy into `Data` and back);
    /// `name` is what errors call them.
    public func decode(bytes data: [UInt8], name: String = "image data") throws(ImageDecodingError) -> DecodedImage {
        // A codec's error sorted into what it means for the caller, keeping its type.
        func codec<T>(_ body: () throws(CodecError) -> T) throws(ImageDecodingError) -> T {
            do { return try body() } catch { throw ImageDecodingError(codecError: error, name: name) }
        }
        if data.starts(with: PNGFile.signature) {
            try checkPixelCount(codec { () throws(CodecError) in try Self.pngSize(data) }, name: name)
            let image = try codec { () throws(CodecError) in try PNGFile.read(data) }
            return DecodedImage(format: .png, image: image, fileOrientation: .up, isOriented: appliesOrientation)
        }
        if Self.isHEIF(data) {
            // HEIC and AVIF alike (libheif reads both).
            let info = try codec { () throws(CodecError) in try HEICFileInfo(data: data) }
            try checkPixelCount(info.storedSize, name: name)
            // libheif turns and mirrors while decoding, which a later turn of ours would repeat.
            let decoded = try codec { () throws(CodecError) in try HEICDecoder.decodeRGB(data, applyingTransformations: appliesOrientation) }
            return DecodedImage(format: .heif, image: RGBImage(size: decoded.size, pixels: decoded.rgb),
                                fileOrientation: info.orientation, isOriented: appliesOrientation)
        }
        let info = try codec { () throws(CodecError) in try ImageFileInfo(data: data) }
        switch info.format {
        case .jpeg, .tiff:
            try checkPixelCount(info.storedSize, name: name)
            let format: DecodedImage.Format = info.format == .jpeg ? .jpeg : .tiff
            // Decoded a band at a time into the turned picture: a turned copy of the whole
            // decode would double the memory a large picture takes.
            if appliesOrientation, info.orientation != .up,
               let turned = try codec({ () throws(CodecError) in try RGBRowReader.readTurned(data, by: info.orientation) }) {
                return DecodedImage(format: format, image: turned, fileOrientation: info.orientation, isOriented: true)
            }
            if format == .tiff {
                let read = try codec { () throws(CodecError) in try TIFFFile.read(data) }
                return oriented(RGBImage(size: read.size, pixels: read.rgb), format: .tiff, orientation: read.orientation)
            }
            let decoded = try codec { () throws(CodecError) in try JPEGDecoder().decodeRGB(data) }
            return oriented(RGBImage(size: decoded.size, pixels: decoded.rgb), format: .jpeg, orientation: info.orientation)
        case .heic:
            throw ImageDecodingError(.unsupportedFormat(reason: "HEIF without an ftyp box"), name: name)
        case .dng:
            throw ImageDecodingError(.unsupportedFormat(reason: "DNG is RAW sensor data, not a picture to decode; develop it instead"),
                                     name: name)
        }
    }

    private func oriented(_ stored: RGBImage, format: DecodedImage.Format, orientation: Orientation) -> DecodedImage {
        DecodedImage(format: format, image: appliesOrientation ? stored.transformed(by: orientation) : stored,
                     fileOrientation: orientation, isOriented: appliesOrientation)
    }

    private func checkPixelCount(_ size: PixelSize, name: String) throws(ImageDecodingError) {
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, pixels <= maximumPixelCount else {
            throw ImageDecodingError(.tooManyPixels(size: size, limit: maximumPixelCount), name: name)
        }
        do { try PixelBudget.check(size) } catch {
            switch error {
            case .pixelBudgetExceeded(_, let limit): throw ImageDecodingError(.tooManyPixels(size: size, limit: limit), name: name)
            case .memoryExceeded(_, let needed, let allowance):
                throw ImageDecodingError(.tooLittleMemory(size: size, bytesNeeded: needed, allowance: allowance), name: name)
            default: break  // an empty size is the format decoder's to name
            }
        }
    }

    /// Whether `data` starts as an ISO base media file (an `ftyp` box): HEIC and AVIF alike.
    static func isHEIF(_ data: [UInt8]) -> Bool {
        data.count >= 12 && data[4..<8].elementsEqual("ftyp".utf8)
    }

    /// The size in a PNG's IHDR chunk, which the signature must be followed by.
    static func pngSize(_ data: [UInt8]) throws(CodecError) -> PixelSize {
        guard data.count >= 24, data[12..<16].elementsEqual("IHDR".utf8) else {
            throw .corruptFile(format: "PNG", reason: "no IHDR chunk after the signature")
        }
        func integer(at offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return PixelSize(width: integer(at: 16), height: integer(at: 20))
    }
}
