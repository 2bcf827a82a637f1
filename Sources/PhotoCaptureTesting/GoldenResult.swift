/// What came of checking a picture against its golden: matched, differed (with the files
/// written for a person to look at), missing (the golden does not exist) or recorded;
/// ``failure`` is nil only for a match.
///
/// ``GoldenImage/verify(fileAt:)`` throws it, inside a ``GoldenImageError``, unless it
/// is a match. Kept as a value: in Swift Testing, `#expect(result.failure == nil)` prints the
/// sentence when it fails (with no `try` inside the `#expect`, which would hide it); in XCTest,
/// `XCTAssertNil(result.failure)`.
public struct GoldenResult: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Outcome: Sendable, Equatable {
        /// The picture matches the golden within tolerance.
        case matched
        /// The picture differs; the displayed picture and a difference image (the two side by
        /// side when the sizes differ) were written.
        case differed
        /// The golden does not exist and record mode is off: nothing was compared, nothing
        /// written where the golden belongs; the picture was written among the failure images
        /// (``GoldenResult/actualPath``), the candidate to look at and record.
        case missing
        /// Record mode: the picture was written as the golden; nothing was compared.
        case recorded
    }

    /// What happened.
    public let outcome: Outcome
    /// The comparison, unless the golden was missing or recorded.
    public let comparison: ImageComparison?
    /// The golden's path.
    public let goldenPath: String
    /// The displayed picture written on a difference, or as the candidate for a missing golden
    /// (a PNG), if any.
    public let actualPath: String?
    /// The difference image written on a difference (a PNG): where the pixels differ; when the
    /// sizes differ, the picture (left) and the golden (right) side by side; when the picture is
    /// the golden turned, the picture compared with the golden turned so (left) beside the golden
    /// (right), see ``ImageComparison/failureImage(actual:golden:)``.
    public let differencePath: String?

    /// Whether the picture matched its golden.
    public var isMatch: Bool { outcome == .matched }

    /// Nil on a match, else ``description``: the sentence a failing test should show.
    public var failure: String? { isMatch ? nil : description }

    /// One readable sentence: the golden, what differs (or that it is missing, or was recorded)
    /// and where to look.
    public var description: String {
        switch outcome {
        case .matched, .differed:
            var sentence = "\(goldenPath): \(comparison!)"
            let difference: (String) -> String = switch comparison!.verdict {
            case .orientationDiffers(let turn):
                { "the picture compared with the golden \(ImageComparison.phrase(turn)) (left, red where more than that differs) and the golden (right) side by side to \($0)" }
            case _ where comparison!.actualSize != comparison!.goldenSize:
                { "the picture (left) and the golden (right) side by side to \($0)" }
            default:
                { "the difference to \($0)" }
            }
            let written = [actualPath.map { "the picture to \($0)" }, differencePath.map(difference)]
                .compactMap { $0 }
            if !written.isEmpty { sentence += "; wrote \(written.joined(separator: " and "))" }
            return sentence
        case .missing:
            return "\(goldenPath): no golden; wrote the picture to \(actualPath ?? "nowhere"); look at it, then copy it to "
                + "the golden's path, or record it with \(GoldenImage.recordEnvironmentVariable)=1 (or recording: true)"
        case .recorded:
            return "\(goldenPath): recorded the golden (\(GoldenImage.recordEnvironmentVariable) is set, or recording: true); "
                + "look at it, then run again without \(GoldenImage.recordEnvironmentVariable) to compare"
        }
    }
}
