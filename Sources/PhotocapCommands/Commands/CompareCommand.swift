import ArgumentParser
import FoundationEssentials
import PhotoCapture
import PhotoCaptureTesting

/// `photocap compare FILE GOLDEN`: what a viewer shows for FILE against a golden picture, as
/// ``GoldenImage`` does in tests; exit 0 within tolerance, 1 not, 2 when a file cannot be read.
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare what a viewer shows for an image file with a golden picture.",
        discussion: """
            FILE and GOLDEN are shown as a viewer shows them (JPEG/TIFF with their orientation, \
            HEIC/AVIF with irot/imir, DNG developed, PNG as is) and compared: same size, mean and \
            largest difference per sample (0-255), PSNR. Exit status 0 within tolerance, 1 when \
            they differ (the sentence says whether in size, orientation or pixels), 2 when a file \
            cannot be read (like ImageMagick's compare). --diff writes where the pixels differ, or, \
            when the sizes differ, the picture (left) and the golden (right) side by side, or, when \
            the picture is the golden turned, the picture compared with the golden turned so (left) \
            beside the golden (right). With \
            PHOTOCAP_RECORD_GOLDENS=1 the \
            picture is written to GOLDEN (a .png) instead, and nothing is compared.
            """)

    @Argument(help: "The file to check (JPEG, HEIC, AVIF, TIFF, DNG or PNG).")
    var file: String

    @Argument(help: "The golden picture (PNG or any of those formats).")
    var golden: String

    @Option(help: "Largest mean difference per sample (0-255) that passes.")
    var tolerance: Double = GoldenTolerance().meanAbsoluteDifference

    @Option(help: "Largest difference any one sample may have (0-255); not checked by default.")
    var maxDifference: Int?

    @Option(help: "Lowest PSNR in dB; not checked by default.")
    var minPsnr: Double?

    @Option(help: "Write a difference image (PNG) here; when the sizes differ, the picture (left) and the golden (right) side by side; when the picture is the golden turned, the picture compared with the golden turned so (left) beside the golden.")
    var diff: String?

    @Flag(help: "Replace an existing --diff file.")
    var overwrite = false

    @Flag(help: "Print JSON.")
    var json = false

    @OptionGroup var pixelBudget: PixelBudgetOptions

    struct Report: Encodable {
        let file: String
        let golden: String
        let match: Bool
        let recorded: Bool
        let verdict: String
        let sentence: String
        let turn: String?
        let size: JSONSize
        let goldenSize: JSONSize?
        let meanAbsoluteDifference: Double?
        let maximumAbsoluteDifference: Int?
        /// Nil when the sizes differ or the pictures are identical (infinite PSNR).
        let psnr: Double?
        let identical: Bool
        let tolerance: Tolerance
        let diff: String?
        /// "difference", "side by side" (the sizes differ: the picture left, the golden right) or
        /// "turned side by side" (the picture compared with the golden turned, left; the golden, right).
        let diffKind: String?
    }

    struct Tolerance: Encodable {
        let meanAbsoluteDifference: Double
        let maximumAbsoluteDifference: Int?
        let minimumPSNR: Double?
    }

    func validate() throws {
        guard tolerance >= 0 else { throw ValidationError("--tolerance \(tolerance) is negative") }
        if let maxDifference, !(0...255).contains(maxDifference) { throw ValidationError("--max-difference \(maxDifference) is not in 0...255") }
        if let diff, URL(fileURLWithPath: diff).pathExtension.lowercased() != "png" { throw ValidationError("--diff \(diff): name a .png file") }
    }

    func run() async throws {
        pixelBudget.limitMemory(.compare)
        let limits = GoldenTolerance(meanAbsoluteDifference: tolerance, maximumAbsoluteDifference: maxDifference, minimumPSNR: minPsnr)
        // Two pictures that match are proven so row for row, neither held whole; anything else
        // (a turn to look for, a difference image) needs the picture whole.
        if !GoldenImage.isRecordModeRequested, diff == nil {
            let matched: ImageComparison?
            do { matched = try GoldenRows.compareRowForRow(fileAt: file, goldenAt: golden, tolerance: limits) } catch { throw failure("\(error)") }
            if let matched { return try report(matched, limits: limits, diff: nil, diffKind: nil) }
        }
        let shown: RGBImage
        do { shown = try DisplayedImage(fileAt: file).image } catch { throw failure("\(error)") }
        if GoldenImage.isRecordModeRequested {
            let result: GoldenResult
            // GOLDEN is the user's, from the working directory (a relative GoldenImage path is
            // taken from the calling source file's folder).
            let goldenPath = URL(fileURLWithPath: golden).path
            do { result = try GoldenImage(goldenPath, tolerance: limits, recording: true).compare(shown) } catch { throw failure("\(error)") }
            try report(Report(file: file, golden: golden, match: false, recorded: true, verdict: "recorded", sentence: result.description,
                              turn: nil, size: JSONSize(shown.size), goldenSize: nil, meanAbsoluteDifference: nil,
                              maximumAbsoluteDifference: nil, psnr: nil, identical: false, tolerance: Tolerance(limits), diff: nil, diffKind: nil))
            return
        }
        // PNG, JPEG and TIFF goldens are read a band of rows at a time against the picture: one
        // picture in memory, not two. Others, and a side-by-side image, need the golden whole.
        var goldenRows: GoldenRows?
        var streamed: ImageComparison?
        do {
            goldenRows = try GoldenRows(fileAt: golden)
            streamed = try goldenRows?.compare(shown, tolerance: limits)
        } catch {
            throw failure("\(error)")
        }
        var goldenPicture: RGBImage?
        if streamed == nil {
            do { goldenPicture = try DisplayedImage(fileAt: golden).image } catch { throw failure("\(error)") }
        }
        let comparison = streamed ?? ImageComparison(actual: shown, golden: goldenPicture!, tolerance: limits)
        var diffWritten: String?
        var diffKind: String?
        if let diff {
            let image: RGBImage
            do { image = try differencePicture(consume shown, golden: goldenPicture, rows: goldenRows, comparison: comparison) } catch {
                throw failure("\(error)")
            }
            do { try image.writePNG(to: diff, overwrite: overwrite) } catch { throw failure("\(error)") }
            (diffWritten, diffKind) = switch comparison.verdict {
            case .pixelsDiffer, .match: (diff, "difference")
            case .orientationDiffers: (diff, "turned side by side")
            case .sizeDiffers: (diff, "side by side")
            }
        }
        try report(comparison, limits: limits, diff: diffWritten, diffKind: diffKind)
    }

    /// Prints `comparison` (with the difference image written, if any); exit status 1 when it
    /// is not within tolerance.
    private func report(_ comparison: ImageComparison, limits: GoldenTolerance, diff diffWritten: String?, diffKind: String?) throws {
        let turn: String? = if case .orientationDiffers(let turn) = comparison.verdict { ImageComparison.phrase(turn) } else { nil }
        let verdict = switch comparison.verdict {
        case .match: "match"
        case .sizeDiffers: "size"
        case .orientationDiffers: "orientation"
        case .pixelsDiffer: "pixels"
        }
        try report(Report(
            file: file, golden: golden, match: comparison.isWithinTolerance, recorded: false, verdict: verdict,
            sentence: "\(file): \(comparison)", turn: turn, size: JSONSize(comparison.actualSize), goldenSize: JSONSize(comparison.goldenSize),
            meanAbsoluteDifference: comparison.meanAbsoluteDifference, maximumAbsoluteDifference: comparison.maximumAbsoluteDifference,
            psnr: comparison.psnr.flatMap { $0.isFinite ? $0 : nil }, identical: comparison.psnr == .infinity,
            tolerance: Tolerance(limits), diff: diffWritten, diffKind: diffKind))
        if !comparison.isWithinTolerance { throw ExitCode(1) }
    }

    /// Where `shown` differs from the golden when the sizes agree (made in `shown`'s own
    /// memory when the golden is read by rows), else the two side by side.
    private func differencePicture(_ shown: consuming RGBImage, golden: RGBImage?, rows: GoldenRows?,
                                   comparison: ImageComparison) throws(GoldenImageError) -> RGBImage {
        var shown = shown
        if comparison.verdict == .pixelsDiffer, let rows, try rows.markDifferences(in: &shown) { return shown }
        let golden = if let golden { golden } else { try DisplayedImage(fileAt: self.golden).image }
        return comparison.failureImage(actual: shown, golden: golden)
    }

    private func report(_ report: Report) throws {
        if json {
            print(try jsonText(report))
        } else {
            print(report.sentence)
            if let diff = report.diff {
                if report.diffKind == "side by side" {
                    print("side by side (left: \(report.file), right: \(report.golden)): \(diff)")
                } else if report.diffKind == "turned side by side", let turn = report.turn {
                    print("side by side (left: \(report.file) compared with \(report.golden) \(turn), red where more than that differs; right: \(report.golden)): \(diff)")
                } else {
                    print("difference image: \(diff)")
                }
            }
        }
    }

    /// `photocap: error: MESSAGE` on stderr, exit status 2 (1 means "differs").
    private func failure(_ message: String) -> ExitCode {
        _ = fail(message)
        return ExitCode(2)
    }
}

extension CompareCommand.Tolerance {
    init(_ tolerance: GoldenTolerance) {
        self.init(meanAbsoluteDifference: tolerance.meanAbsoluteDifference, maximumAbsoluteDifference: tolerance.maximumAbsoluteDifference,
                  minimumPSNR: tolerance.minimumPSNR)
    }
}
