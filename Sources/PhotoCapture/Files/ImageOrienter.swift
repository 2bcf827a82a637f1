import Codecs
import Foundation
import Imaging

/// Turns JPEG, HEIC and TIFF files upright: the orientation their metadata asks of viewers is
/// applied to the pixels and the metadata says 1, for consumers that ignore it. What
/// `photocap orient` does, as library API.
///
/// JPEGs are decoded, turned and re-encoded at ``quality`` — or, with ``isLossless``, their
/// coded blocks are turned without re-encoding where that is exact (refused where it is not).
/// EXIF is rewritten for the new size with orientation 1 in IFD0 and IFD1 and its thumbnail
/// turned the same way; XMP says orientation 1; ICC profiles, comments and other descriptive
/// segments are carried over. HEIC files are decoded as a viewer shows them (`irot`/`imir`
/// applied) and re-encoded with no transformation, EXIF and thumbnail made to agree. TIFFs are
/// written as RGB with Orientation 1. RAW files (DNG and camera RAW names) are refused: their
/// Orientation tag is the correction.
public struct ImageOrienter: Sendable {
    /// JPEG/HEIC quality of re-encoded pictures, 1...100.
    public var quality: Int
    /// JPEG only: turn the coded blocks without re-encoding, refused where that is not exact.
    public var isLossless: Bool

    /// Quality of re-made EXIF thumbnails.
    static let thumbnailQuality = 90

    /// File name extensions of RAW formats, refused without reading them.
    public static let rawExtensions: Set<String> = ["dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2", "pef", "srw"]

    /// An orienter re-encoding at `quality` (1...100), or turning JPEGs losslessly.
    public init(quality: Int = 92, lossless: Bool = false) {
        self.quality = quality
        self.isLossless = lossless
    }

    /// What became of one file.
    public enum Outcome: Sendable, Equatable {
        /// The file was already upright; nothing was turned.
        case alreadyUpright
        /// The pixels were turned from `orientation`; the result is `size`.
        case turned(from: Orientation, size: PixelSize)
    }

    /// The upright form of an image file's bytes.
    public struct Result: Sendable {
        /// The file's format.
        public let format: ImageFileFormat
        /// The orientation the file asked of viewers.
        public let originalOrientation: Orientation
        /// The upright file, or nil when the file was already upright.
        public let data: Data?
        /// The upright picture's size.
        public let size: PixelSize
    }

    /// Reads `path` and returns its upright form, checking everything before any pixel work.
    public func upright(fileAt path: String) throws(PhotoCaptureError) -> Result {
        try upright(try Self.contents(of: path))
    }

    /// The bytes of the image file at `path`; RAW files are refused by name, unread.
    private static func contents(of path: String) throws(PhotoCaptureError) -> Data {
        let url = URL(fileURLWithPath: path)
        if rawExtensions.contains(url.pathExtension.lowercased()) { throw PhotoCaptureError(.rawNotReoriented) }
        guard FileManager.default.fileExists(atPath: path) else {
            throw PhotoCaptureError(.imageFileUnreadable(reason: "no such file"))
        }
        do { return try Data(contentsOf: url) } catch {
            throw PhotoCaptureError(.imageFileUnreadable(reason: "cannot read: \(error.localizedDescription)"))
        }
    }

    /// The upright form of an image file's bytes.
    public func upright(_ data: Data) throws(PhotoCaptureError) -> Result {
        let bytes = [UInt8](data)
        return try upright(bytes, try inspected(bytes))
    }

    /// What the file is, refusing before any pixel work what cannot be turned.
    private func inspected(_ bytes: [UInt8]) throws(PhotoCaptureError) -> ImageFileInfo {
        let info: ImageFileInfo
        do { info = try ImageFileInfo(data: bytes) } catch { throw PhotoCaptureError(.imageFileDamaged(error)) }
        if info.format == .dng { throw PhotoCaptureError(.rawNotReoriented) }
        if isLossless, info.format != .jpeg { throw PhotoCaptureError(.losslessRequiresJPEG(info.format)) }
        guard (1...100).contains(quality) else { throw PhotoCaptureError(.qualityOutOfRange(quality)) }
        return info
    }

    private func upright(_ bytes: [UInt8], _ info: ImageFileInfo) throws(PhotoCaptureError) -> Result {
        // For HEIC the irot/imir properties decide (EXIF inside HEIF is informative), but an
        // EXIF orientation other than 1 is made consistent too.
        let orientation = info.orientation
        if orientation == .up && (info.format != .heic || (info.exifOrientation ?? .up) == .up) {
            return Result(format: info.format, originalOrientation: orientation, data: nil, size: info.displayedSize)
        }
        let turned: (bytes: [UInt8], size: PixelSize)
        do {
            switch info.format {
            case .jpeg: turned = isLossless ? try losslessJPEG(bytes, orientation) : try lossyJPEG(bytes, orientation)
            case .heic: turned = try heic(bytes)
            case .tiff: turned = try tiff(bytes, exif: info.exif)
            case .dng: throw PhotoCaptureError(.rawNotReoriented)
            }
        } catch let error as PhotoCaptureError {
            throw error
        } catch let notExact as JPEGLosslessTransform.NotExact {
            throw PhotoCaptureError(.losslessNotExact(orientation: notExact.orientation, size: notExact.size, mcu: notExact.mcu))
        } catch let error as CodecError {
            throw PhotoCaptureError(.imageFileDamaged(error))
        } catch let error as ImagingError {
            throw PhotoCaptureError(.imaging(error))
        } catch {
            throw PhotoCaptureError(.unexpected("\(error)"))
        }
        return Result(format: info.format, originalOrientation: orientation, data: Data(turned.bytes), size: turned.size)
    }

    /// Turns the file at `path` upright into `target`, atomically; `target` may be `path` itself
    /// with `overwrite` (in place). An upright file is copied to another `target` unchanged and
    /// left alone in place. Without `overwrite` an existing `target` is refused
    /// (``PhotoCaptureError/Code/fileExists(path:)``) once the file is known to be one that
    /// can be turned, before any pixel work.
    @discardableResult
    public func orientFile(at path: String, writingTo target: String, overwrite: Bool) throws(PhotoCaptureError) -> Outcome {
        let original = try Self.contents(of: path)
        let bytes = [UInt8](original)
        let info = try inspected(bytes)
        if !overwrite, FileManager.default.fileExists(atPath: target) { throw PhotoCaptureError(.fileExists(path: target)) }
        let result = try upright(bytes, info)
        guard let turned = result.data else {
            if URL(fileURLWithPath: target).standardizedFileURL != URL(fileURLWithPath: path).standardizedFileURL {
                try AtomicFileWriter.write(original, to: target, overwrite: overwrite)
            }
            return .alreadyUpright
        }
        try AtomicFileWriter.write(turned, to: target, overwrite: overwrite)
        return .turned(from: result.originalOrientation, size: result.size)
    }

    // MARK: JPEG

    /// Decoded, turned as a whole image (odd sizes kept), re-encoded at ``quality``; EXIF rewritten,
    /// XMP (orientation 1), ICC profile, comments and other descriptive segments carried over.
    private func lossyJPEG(_ data: [UInt8], _ orientation: Orientation) throws -> (bytes: [UInt8], size: PixelSize) {
        let decoded = try JPEGDecoder().decodeRGB(data)
        // The whole-image transform keeps odd sizes; the camera's strip converter works on even
        // 4:2:0 crops and would drop an odd last row or column.
        let planar = try RGBImage(size: decoded.size, pixels: decoded.rgb).transformed(by: orientation).planarImage()
        let encoded = try JPEGEncoder().encode(planar, quality: quality)
        let withEXIF = try withNormalizedEXIF(of: data, into: encoded, size: planar.size, orientation: orientation)
        return (try JPEGFile.withUprightXMP(JPEGFile.carryingDescriptiveSegments(from: data, into: withEXIF)), planar.size)
    }

    /// tjTransform where exact (else ``JPEGLosslessTransform/NotExact``); EXIF and XMP rewritten.
    private func losslessJPEG(_ data: [UInt8], _ orientation: Orientation) throws -> (bytes: [UInt8], size: PixelSize) {
        let transformed = try JPEGLosslessTransform.transform(data, applying: orientation)
        let size = try JPEGDecoder().header(transformed).size
        // tjTransform copies every other segment itself.
        return (try JPEGFile.withUprightXMP(withNormalizedEXIF(of: data, into: transformed, size: size, orientation: orientation)), size)
    }

    /// `jpeg` with the EXIF block of `original` rewritten for upright pixels of `size`.
    private func withNormalizedEXIF(of original: [UInt8], into jpeg: [UInt8], size: PixelSize,
                                    orientation: Orientation) throws -> [UInt8] {
        guard let block = try JPEGFile.exifBlock(in: original) else { return jpeg }
        let thumbnail = try EXIFBuilder.orientationAndThumbnail(of: block).thumbnailJPEG
        let turned = try thumbnail.map { try turnedThumbnail($0, by: orientation) }
        return try JPEGFile.insertingEXIF(EXIFBuilder.normalizing(block, pixelSize: size, thumbnailJPEG: turned), into: jpeg)
    }

    /// A JPEG thumbnail decoded, turned by `orientation` and re-encoded.
    private func turnedThumbnail(_ jpeg: [UInt8], by orientation: Orientation) throws -> [UInt8] {
        let decoded: (size: PixelSize, rgb: [UInt8])
        do { decoded = try JPEGDecoder().decodeRGB(jpeg) } catch {
            throw PhotoCaptureError(.thumbnailUndecodable(error))
        }
        let turned = RGBImage(size: decoded.size, pixels: decoded.rgb).transformed(by: orientation)
        return try JPEGEncoder().encode(turned.planarImage(), quality: Self.thumbnailQuality)
    }

    // MARK: HEIC

    /// Decoded as a viewer shows it, re-encoded with orientation .up; EXIF and thumbnail re-made.
    private func heic(_ data: [UInt8]) throws -> (bytes: [UInt8], size: PixelSize) {
        let decoded = try HEICDecoder.decodeRGB(data, applyingTransformations: true)
        let image = try RGBImage(size: decoded.size, pixels: decoded.rgb).planarImage()
        let thumbnail = try HEICDecoder.decodeThumbnailRGB(data, applyingTransformations: true).map {
            try RGBImage(size: $0.size, pixels: $0.rgb).planarImage()
        }
        var exif: [UInt8]?
        if let block = try HEICFileInfo(data: data).exifBlock {
            let parts = try EXIFBuilder.orientationAndThumbnail(of: block)
            // An IFD1 thumbnail inside the Exif item is turned by its own EXIF orientation.
            let exifThumbnail = try parts.thumbnailJPEG.map {
                try turnedThumbnail($0, by: Orientation(exifValue: parts.thumbnailOrientation ?? parts.orientation ?? 1))
            }
            exif = try EXIFBuilder.normalizing(block, pixelSize: image.size, thumbnailJPEG: exifThumbnail)
        }
        let bytes = try HEICEncoder().encode(image, quality: quality, orientation: .up, thumbnail: thumbnail, exif: exif)
        return (bytes, image.size)
    }

    // MARK: TIFF

    /// Stored RGB turned, written as an RGB TIFF with Orientation 1 and Make/Model/Software/DateTime.
    private func tiff(_ data: [UInt8], exif: [String: String]) throws -> (bytes: [UInt8], size: PixelSize) {
        let read = try TIFFFile.read(data)
        let turned = RGBImage(size: read.size, pixels: read.rgb).transformed(by: read.orientation)
        var metadata = EXIFMetadata(orientation: .up)
        metadata.make = exif["Make"]
        metadata.model = exif["Model"]
        metadata.software = exif["Software"]
        if let stamp = exif["DateTime"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
            metadata.dateTimeOriginal = formatter.date(from: stamp)
        }
        return (try TIFFFile.encode(rgb: turned.pixels, size: turned.size, metadata: metadata), turned.size)
    }
}
