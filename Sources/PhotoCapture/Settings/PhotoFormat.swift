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

/// How hard the HEVC encoder (x265) works; its preset dominates HEIC time.
public enum HEICEncodingSpeed: String, CaseIterable, Hashable, Sendable {
    /// Fastest, largest files.
    case ultrafast, superfast, veryfast, faster, fast
    /// The default: a balance of time and size.
    case medium
    /// Smallest files, several seconds at 12 MP.
    case slow
}

/// When the flash fires.
public enum FlashMode: String, CaseIterable, Hashable, Sendable {
    /// Never.
    case off
    /// Always; rejected on devices without a flash.
    case on
    /// When the scene needs it; resolves to off on devices without a flash.
    case auto
}

/// How sensor mounting is handled in processed photos (never in RAW: a DNG's data is never
/// turned, whatever the mode).
public enum OrientationCompensation: String, CaseIterable, Hashable, Sendable {
    /// The pixels are turned to undo the sensor's mounting; the metadata carries only how the
    /// device was held. The default, as on Apple's photo output.
    case sensor
    /// Pixels stay as the sensor delivered them; the metadata carries the whole correction.
    /// The fast path.
    case none
    /// Everything is applied to the pixels and the metadata says "normal" (1), for consumers that
    /// ignore orientation metadata.
    case upright
}
