/// How far a picture may differ from its golden and still match: limits on the mean and the
/// largest absolute difference per sample (0...255) and a lowest PSNR. Unset limits are not
/// checked; the mean is always checked.
public struct GoldenTolerance: Sendable, Equatable, CustomStringConvertible {
    /// The largest mean absolute difference per sample (0...255) that matches.
    public var meanAbsoluteDifference: Double
    /// The largest absolute difference any one sample may have, if checked.
    public var maximumAbsoluteDifference: Int?
    /// The lowest peak signal-to-noise ratio, in dB, if checked.
    public var minimumPSNR: Double?

    /// Limits on the mean (default 2: a re-encode of a JPEG stays well under it, a turned or
    /// mirrored photo is far above it), and optionally the maximum and the PSNR.
    public init(meanAbsoluteDifference: Double = 2, maximumAbsoluteDifference: Int? = nil, minimumPSNR: Double? = nil) {
        self.meanAbsoluteDifference = meanAbsoluteDifference
        self.maximumAbsoluteDifference = maximumAbsoluteDifference
        self.minimumPSNR = minimumPSNR
    }

    /// The limits, e.g. "mean ≤ 2, max ≤ 40, PSNR ≥ 30 dB".
    public var description: String {
        var parts = ["mean ≤ \(Self.figure(meanAbsoluteDifference))"]
        if let maximumAbsoluteDifference { parts.append("max ≤ \(maximumAbsoluteDifference)") }
        if let minimumPSNR { parts.append("PSNR ≥ \(Self.figure(minimumPSNR)) dB") }
        return parts.joined(separator: ", ")
    }

    /// A figure with at most two decimals, for sentences.
    static func figure(_ value: Double) -> String {
        guard value.isFinite else { return value > 0 ? "∞" : "-∞" }
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
