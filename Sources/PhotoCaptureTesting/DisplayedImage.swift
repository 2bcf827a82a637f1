import FoundationEssentials
import Imaging
import PhotoCapture

/// The picture a viewer shows for an image file: decoded, with the file's own orientation
/// applied, as 8-bit RGB.
///
/// - JPEG and TIFF: the EXIF/TIFF `Orientation` applied to the stored pixels.
/// - HEIC and AVIF (HEIF): the `irot`/`imir` properties applied (libheif), as the HEIF rule
///   says; an EXIF orientation inside is informative and is not applied a second time
///   (``OrientationConsistency`` checks that it agrees).
/// - DNG: developed by LibRaw (white balance as shot, sRGB) with its `Orientation` applied.
/// - PNG: as stored.
public struct DisplayedImage: Sendable {
    /// The kinds of file read.
    public enum Format: String, Sendable {
        /// PNG, shown as stored.
        case png
        /// JPEG with its EXIF orientation.
        case jpeg
        /// TIFF with its Orientation tag.
        case tiff
        /// DNG, developed.
        case dng
        /// HEIC or AVIF, with `irot`/`imir`.
        case heif
    }

    /// What a viewer shows: named as `DecodedImage.image` is, for the same idea.
    public let image: RGBImage
    /// What a viewer shows.
    @available(*, deprecated, renamed: "image", message: "named as DecodedImage.image is")
    public var picture: RGBImage { image }
    /// The file's format.
    public let format: Format
    /// The orientation that was applied to the stored pixels (`.up` for PNG).
    public let appliedOrientation: Orientation

    /// Reads and decodes the file at `path`; a TIFF (not DNG) is read as it is decoded, not held
    /// whole beside its picture.
    public init(fileAt path: String) throws(GoldenImageError) {
        do {
            if let decoded = try ImageDecoder().decodeTIFF(fileAt: path) {
                self.init(image: decoded.image, format: .tiff, appliedOrientation: decoded.fileOrientation)
                return
            }
        } catch {
            if case .unreadable(let cause) = error.code { throw GoldenImageError(.unreadable(cause), path: path) }
            throw GoldenImageError(.undecodable(error.codecError), path: path)
        }
        let data = try Self.contents(of: path)
        do { self = try Self.decode(data) } catch { throw GoldenImageError(.undecodable(error), path: path) }
    }

    /// Decodes a whole file's bytes; `name` is what errors call it.
    public init(data: Data, name: String = "image") throws(GoldenImageError) {
        do { self = try Self.decode([UInt8](data)) } catch { throw GoldenImageError(.undecodable(error), path: name) }
    }

    private init(image: RGBImage, format: Format, appliedOrientation: Orientation) {
        self.image = image
        self.format = format
        self.appliedOrientation = appliedOrientation
    }

    /// The bytes of `path`, with the file layer's typed reason when it cannot be read: read as
    /// every command reads a file, so a FIFO or /dev/zero is named as such (Foundation's read
    /// called either "Permission denied") and never waited on or read for ever.
    static func contents(of path: String) throws(GoldenImageError) -> [UInt8] {
        do { return try InputFile.read(path) } catch { throw GoldenImageError(.unreadable(error), path: path) }
    }

    private static func decode(_ data: [UInt8]) throws(CodecError) -> DisplayedImage {
        // DNG is a TIFF with a DNGVersion tag: developed here, not by the decoder of pictures.
        let isTIFF = data.starts(with: Array("II*\0".utf8)) || data.starts(with: Array("MM\0*".utf8))
        let decoded: DecodedImage
        do {
            if isTIFF, let info = try? ImageFileInfo(data: data), info.format == .dng {
                decoded = try ImageDecoder().develop(bytes: data)
            } else {
                decoded = try ImageDecoder().decode(bytes: data, name: "image")
            }
        } catch {
            throw error.codecError
        }
        let format: Format = switch decoded.format {
        case .jpeg: .jpeg
        case .png: .png
        case .heif: .heif
        case .tiff: .tiff
        case .dng: .dng
        }
        return DisplayedImage(image: decoded.image, format: format, appliedOrientation: decoded.fileOrientation)
    }
}

extension ImageDecodingError {
    /// The codec layer's error for the cause, as ``GoldenImageError/Code/undecodable(_:)``
    /// carries it.
    var codecError: CodecError {
        switch code {
        case .unreadable(let error): .file(error)
        case .unsupportedFormat(let reason): .unsupportedFormat(reason: reason)
        case .damaged(let error): error
        case .tooManyPixels(let size, let limit): .pixelBudgetExceeded(format: "image", size: size, limit: limit)
        case .tooLittleMemory(let size, let needed, let allowance):
            .memoryExceeded(format: "image", size: size, bytesNeeded: needed, allowance: allowance)
        }
    }
}
