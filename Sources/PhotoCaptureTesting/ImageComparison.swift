import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import PhotoCapture

/// A displayed picture compared with its golden: the sizes, the mean and largest absolute
/// difference per sample and the PSNR, judged against a ``GoldenTolerance``, and one sentence
/// that says what differs — the size, the orientation (the picture matches the golden once
/// turned or mirrored) or the pixels.
public struct ImageComparison: Sendable, Equatable, CustomStringConvertible {
    /// What differs, if anything.
    public enum Verdict: Sendable, Equatable {
        /// Within tolerance.
        case match
        /// The sizes differ and no turn of the picture explains it.
        case sizeDiffers
        /// The picture is the golden turned or mirrored by this orientation (applied to the
        /// golden, it gives the picture).
        case orientationDiffers(Orientation)
        /// Same size, same orientation, but the pixels are beyond tolerance.
        case pixelsDiffer
    }

    /// Size of the picture compared.
    public let actualSize: PixelSize
    /// Size of the golden.
    public let goldenSize: PixelSize
    /// Mean absolute difference per sample (0...255); nil when the sizes differ.
    public let meanAbsoluteDifference: Double?
    /// Largest absolute difference of any sample; nil when the sizes differ.
    public let maximumAbsoluteDifference: Int?
    /// Peak signal-to-noise ratio in dB (infinite for identical pictures); nil when the sizes differ.
    public let psnr: Double?
    /// The limits judged against.
    public let tolerance: GoldenTolerance
    /// The outcome.
    public let verdict: Verdict

    /// Whether the picture matches its golden within ``tolerance``.
    public var isWithinTolerance: Bool { verdict == .match }

    /// Compares `actual` (what a viewer shows) with `golden`.
    public init(actual: RGBImage, golden: RGBImage, tolerance: GoldenTolerance = GoldenTolerance()) {
        self.init(actualSize: actual.size, goldenSize: golden.size,
                  statistics: actual.size == golden.size ? actual.differenceStatistics(to: golden) : nil,
                  tolerance: tolerance) { () -> [Orientation: Double] in
            // Judged at full resolution: scaling before turning is not exact (a box filter's
            // grid is not symmetric), and this runs only when the comparison already failed.
            var scores: [Orientation: Double] = [:]
            for candidate in Orientation.allCases where candidate.apply(to: golden.size) == actual.size {
                scores[candidate] = golden.transformed(by: candidate).differenceStatistics(to: actual).mean
            }
            return scores
        }
    }

    /// The comparison of pictures of `actualSize` and `goldenSize` whose differences are
    /// `statistics` (nil when the sizes differ); `turnScores` (the mean difference of the golden
    /// turned by each orientation that gives the picture's size) is asked only when they do not
    /// match as they are.
    init<Failure: Error>(actualSize: PixelSize, goldenSize: PixelSize, statistics: DifferenceStatistics?, tolerance: GoldenTolerance,
                         turnScores: () throws(Failure) -> [Orientation: Double]) throws(Failure) {
        self.actualSize = actualSize
        self.goldenSize = goldenSize
        self.tolerance = tolerance
        guard let statistics else {
            meanAbsoluteDifference = nil
            maximumAbsoluteDifference = nil
            psnr = nil
            verdict = Self.turn(scores: try turnScores(), tolerance: tolerance).map(Verdict.orientationDiffers) ?? .sizeDiffers
            return
        }
        meanAbsoluteDifference = statistics.mean
        maximumAbsoluteDifference = statistics.maximum
        let psnr = statistics.meanSquared == 0 ? Double.infinity : 10 * log10(255 * 255 / statistics.meanSquared)
        self.psnr = psnr
        let within = statistics.mean <= tolerance.meanAbsoluteDifference
            && tolerance.maximumAbsoluteDifference.map { statistics.maximum <= $0 } ?? true
            && tolerance.minimumPSNR.map { psnr >= $0 } ?? true
        if within {
            verdict = .match
        } else {
            verdict = Self.turn(scores: try turnScores(), tolerance: tolerance).map(Verdict.orientationDiffers) ?? .pixelsDiffer
        }
    }

    /// The turn or mirror that makes the golden look like the picture, when one clearly does
    /// and it is not `.up`, from the mean difference each turn leaves.
    static func turn(scores: [Orientation: Double], tolerance: GoldenTolerance) -> Orientation? {
        guard let best = scores.min(by: { $0.value < $1.value }), best.key != .up else { return nil }
        // Clearly better than leaving it as it is, and close to the golden on its own (other
        // encodes of one scene, with their own labels, stay within a few times the tolerance).
        let unturned = scores[.up] ?? .infinity
        guard best.value * 2 < unturned, best.value <= 3 * tolerance.meanAbsoluteDifference + 6 else { return nil }
        return best.key
    }

    /// One sentence: whether the picture matches, and if not what differs, with the figures.
    public var description: String {
        let figures = meanAbsoluteDifference.map { mean in
            "mean difference \(GoldenTolerance.figure(mean)), max \(maximumAbsoluteDifference!), PSNR \(GoldenTolerance.figure(psnr!)) dB"
        }
        switch verdict {
        case .match:
            return "matches the golden (\(actualSize), \(figures!); tolerance \(tolerance))"
        case .sizeDiffers:
            return "differs in size: the picture is \(actualSize), the golden \(goldenSize)"
        case .orientationDiffers(let turn):
            let sizes = actualSize == goldenSize ? "" : " (the picture is \(actualSize), the golden \(goldenSize))"
            let measured = figures.map { "; \($0), tolerance \(tolerance)" } ?? ""
            return "differs in orientation: the picture shows the golden \(Self.phrase(turn))\(sizes)\(measured)"
        case .pixelsDiffer:
            return "differs in pixels beyond the tolerance: \(figures!) over \(actualSize); tolerance \(tolerance)"
        }
    }

    /// What `orientation` does to a picture, in words ("mirrored left-right", "rotated 180°").
    public static func phrase(_ orientation: Orientation) -> String {
        switch orientation {
        case .up: "unchanged"
        case .upMirrored: "mirrored left-right"
        case .down: "rotated 180°"
        case .downMirrored: "mirrored top-bottom"
        case .right: "rotated 90° clockwise"
        case .left: "rotated 90° counter-clockwise"
        case .leftMirrored: "transposed (mirrored across the top-left to bottom-right diagonal)"
        case .rightMirrored: "transversed (mirrored across the top-right to bottom-left diagonal)"
        }
    }

    /// Where the picture differs from its golden (same size only): a dim grey copy of the
    /// picture where they agree, red where they differ, brighter for larger differences.
    public static func differenceImage(actual: RGBImage, golden: RGBImage) -> RGBImage? {
        actual.size == golden.size ? actual.differenceImage(to: golden) : nil
    }

    /// What a person looks at when the picture does not match: the ``differenceImage(actual:golden:)``
    /// when only pixels differ; the picture and the golden side by side when the sizes differ;
    /// and when the picture is the golden turned (``Verdict/orientationDiffers(_:)``), the
    /// picture compared with the golden turned so (red only where more than the turn differs)
    /// beside the golden as recorded, so the turn shows instead of a picture that is all red.
    public func failureImage(actual: RGBImage, golden: RGBImage) -> RGBImage {
        if case .orientationDiffers(let turn) = verdict {
            let residue = actual.differenceImage(to: golden.transformed(by: turn))
            return Self.sideBySideImage(actual: residue, golden: golden)
        }
        return Self.differenceImage(actual: actual, golden: golden) ?? Self.sideBySideImage(actual: actual, golden: golden)
    }

    /// The gap between the two pictures of ``sideBySideImage(actual:golden:)``, in pixels.
    static let sideBySideGap = 8

    /// The picture on the left and the golden on the right, top-aligned, 8 pixels apart on a
    /// dark grey ground: what a person looks at when the sizes differ.
    public static func sideBySideImage(actual: RGBImage, golden: RGBImage) -> RGBImage {
        let size = PixelSize(width: actual.size.width + sideBySideGap + golden.size.width,
                             height: max(actual.size.height, golden.size.height))
        var pixels = [UInt8](repeating: 48, count: size.area * 3)
        for (picture, left) in [(actual, 0), (golden, actual.size.width + sideBySideGap)] {
            let rowBytes = picture.size.width * 3
            for y in 0..<picture.size.height {
                let target = (y * size.width + left) * 3
                pixels[target..<target + rowBytes] = picture.pixels[y * rowBytes..<(y + 1) * rowBytes]
            }
        }
        return RGBImage(size: size, pixels: pixels)
    }
}
