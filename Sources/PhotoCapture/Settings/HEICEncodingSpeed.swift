/// How hard the HEVC encoder (x265) works; its preset dominates HEIC time.
public enum HEICEncodingSpeed: String, CaseIterable, Hashable, Sendable {
    /// Fastest, largest files.
    case ultrafast, superfast, veryfast, faster, fast
    /// The default: a balance of time and size.
    case medium
    /// Smallest files, several seconds at 12 MP.
    case slow
}
