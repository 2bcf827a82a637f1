/// How hard the HEVC encoder (x265) works; its preset dominates HEIC time.
///
/// A photo is one intra-coded picture, for which `veryfast`, `faster`, `fast` and `medium` code
/// alike (x265's presets differ there only in tools for video, and `medium` takes their RD level,
/// which keeps libheif's size and PSNR in about 0.8x of the time).
public enum HEICEncodingSpeed: String, CaseIterable, Hashable, Sendable {
    /// Fastest, largest files.
    case ultrafast, superfast, veryfast, faster, fast
    /// The default: a balance of time and size.
    case medium
    /// Smallest files, several seconds at 12 MP.
    case slow
}
