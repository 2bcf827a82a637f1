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
    /// they are set.
    ///
    /// Issue 17 asked for the HEIC encode at 0.9x of heif-enc's time at equal size and PSNR.
    /// Measured at quality 50 on three 12 MP pictures (the benchmark's noisy synthetic scene and
    /// the iPhone pug and arrow photographs), one encode of the same 4:2:0 planes, CPU time
    /// against libheif's defaults for `medium`: 16-18% less, size -0.01% to +0.2%, PSNR -0.01 to
    /// +0.004 dB (pug 3.83 -> 3.16 s, 718,121 -> 718,042 bytes, 46.018 -> 46.008 dB); for
    /// `ultrafast` (pug) 11% less, +0.07%, -0.04 dB.
    /// - `tu-intra-depth` 1: x265's own default, which libheif raises to 2; the deeper
    ///   transform split cost 8-10% of the time for 0.01 dB.
    /// - `rd` 2 (`medium` only; the faster presets have it): 5-8% of the time, within 0.01 dB
    ///   and 0.6% of the size.
    /// - `splitrd-skip`: stops trying a split once its parts cost more than the whole; the
    ///   same bitstream, about 1% less time.
    ///
    /// Not taken (see issue 17's report): `signhide` 0 (7% less time but up to -0.08 dB),
    /// `min-cu-size` 16 (63% less on the synthetic scene, -0.31 dB on the pug), `rd` 1
    /// (-0.1 dB), `psy-rd` 0, `sao` off, `ctu` 32 (4% less, -0.03 to -0.06 dB on the photos, and
    /// libheif's 16-pixel CTU for pictures under 32 pixels would be overridden). `slow` keeps
    /// libheif's settings (not measured).
    package var x265Parameters: [(name: String, value: String)] {
        switch self {
        case .slow: []
        case .medium: [("tu-intra-depth", "1"), ("x265:rd", "2"), ("x265:splitrd-skip", "1")]
        case .ultrafast, .superfast, .veryfast, .faster, .fast: [("tu-intra-depth", "1"), ("x265:splitrd-skip", "1")]
        }
    }
}
