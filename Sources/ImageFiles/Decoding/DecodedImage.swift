import Imaging

/// A picture ``ImageDecoder`` read: its pixels as 8-bit RGB, the file's format and orientation,
/// and whether that orientation was applied.
public struct DecodedImage: Sendable {
    /// The formats ``ImageDecoder`` reads.
    public enum Format: String, Sendable, Hashable {
        /// JPEG (JFIF/EXIF).
        case jpeg
        /// PNG.
        case png
        /// HEIF: HEIC (HEVC-coded), or AVIF where libheif has an AV1 decoder.
        case heif
        /// TIFF.
        case tiff
        /// DNG, developed (``ImageDecoder/develop(bytes:name:)``).
        case dng
    }

    /// The file's format.
    public let format: Format
    /// The pixels: as a viewer shows them when ``isOriented``, else as stored.
    public let image: RGBImage
    /// The orientation the file declares for its stored pixels (`.up` for PNG).
    public let fileOrientation: Orientation
    /// Whether ``fileOrientation`` was applied to ``image``.
    public let isOriented: Bool

    /// Width and height of ``image``.
    public var size: PixelSize { image.size }

    package init(format: Format, image: RGBImage, fileOrientation: Orientation, isOriented: Bool) {
        (self.format, self.image, self.fileOrientation, self.isOriented) = (format, image, fileOrientation, isOriented)
    }
}
