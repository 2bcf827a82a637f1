/// What a photo request produces.
public enum PhotoFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// A JPEG file (libjpeg-turbo) with EXIF and an optional IFD1 thumbnail.
    case jpeg
    /// A HEIC file (HEVC via libheif and x265) with irot/imir, EXIF and an optional thumbnail item.
    case heic
    /// An uncompressed 8-bit RGB TIFF file with the TIFF Orientation tag and EXIF.
    case tiff
    /// No file: the processed photo as a pixel buffer only.
    case uncompressed
    /// A DNG file: the camera's Bayer (RAW) data exactly as the sensor delivered it, never
    /// turned; its Orientation tag carries the whole correction.
    case dng

    /// The usual file name extension, nil for ``uncompressed``.
    public var fileExtension: String? {
        switch self {
        case .jpeg: return "jpg"
        case .heic: return "heic"
        case .tiff: return "tiff"
        case .uncompressed: return nil
        case .dng: return "dng"
        }
    }

    /// Whether the file format can embed a thumbnail (a DNG always has its preview IFD).
    public var supportsEmbeddedThumbnail: Bool { self == .jpeg || self == .heic || self == .dng }

    /// Whether this is a processed format (the pixels developed and encoded), as opposed to RAW.
    public var isProcessed: Bool { self != .dng }

    /// The format's name.
    public var description: String { rawValue }
}
