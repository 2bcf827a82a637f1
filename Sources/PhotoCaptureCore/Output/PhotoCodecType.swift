/// Codecs for compressed photos.
public enum PhotoCodecType: String, CaseIterable, Hashable, Sendable {
    /// JPEG.
    case jpeg
    /// HEVC, stored in a HEIC file.
    case hevc
}
