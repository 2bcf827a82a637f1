/// x265 speed presets, fastest first; the preset dominates HEIC encoding time (at 12 MP
/// about 0.8 s for `ultrafast`, 2.9 s for `medium`, 7 s for `slow`).
///
/// For one intra-coded picture x265's `veryfast`, `faster` and `fast` differ from `medium` only
/// in its RD level (2 against 3); with ``x265Parameters`` `medium` uses level 2 too, so these
/// four code a still picture alike.
package enum HEICEncoderPreset: String, CaseIterable, Sendable {
    /// Fastest, largest files.
    case ultrafast
    /// Very fast.
    case superfast
    /// Fast.
    case veryfast
    /// Faster than the default.
    case faster
    /// Slightly faster than the default.
    case fast
    /// x265's default balance.
    case medium
    /// Smaller files, about twice the time of `medium`.
    case slow

    /// x265 settings added to the preset (libheif passes `x265:` names through), in the order
    /// they are set: each saves time at the same size and PSNR as libheif's defaults (the
    /// measurements, and the settings not taken, are in the Performance article). `slow` keeps
    /// libheif's settings.
    package var x265Parameters: [(name: String, value: String)] {
        switch self {
        case .slow: []
        case .medium: [("tu-intra-depth", "1"), ("x265:rd", "2"), ("x265:splitrd-skip", "1")]
        case .ultrafast, .superfast, .veryfast, .faster, .fast: [("tu-intra-depth", "1"), ("x265:splitrd-skip", "1")]
        }
    }
}
