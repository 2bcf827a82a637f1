/// The still-image file formats photocap writes and inspects.
public enum ImageFileFormat: String, Sendable {
    /// JPEG (JFIF/EXIF).
    case jpeg
    /// HEIC: HEVC-coded HEIF.
    case heic
    /// TIFF.
    case tiff
    /// DNG: a TIFF with a DNGVersion tag.
    case dng
}
