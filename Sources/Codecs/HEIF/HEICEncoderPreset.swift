/// x265 speed presets, fastest first; the preset dominates HEIC encoding time (at 12 MP
/// about 0.8 s for `ultrafast`, 3.5 s for `medium`, 7 s for `slow`).
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
}
