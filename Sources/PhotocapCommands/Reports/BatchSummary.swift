import FoundationEssentials
import PhotoCapture

/// What a batch of `photocap orient` came to: files turned, already upright, HEICs whose EXIF
/// was made to agree or whose irot/imir were set from their EXIF, and refused.
struct BatchSummary: Encodable {
    let turned: Int
    let alreadyUpright: Int
    let exifCorrected: Int
    let transformsSet: Int
    let refused: Int

    init(_ outcomes: [ImageOrienter.BatchOutcome]) {
        var counts = (turned: 0, upright: 0, corrected: 0, set: 0, refused: 0)
        for outcome in outcomes {
            switch outcome.result {
            case .success(.turned): counts.turned += 1
            case .success(.alreadyUpright): counts.upright += 1
            case .success(.exifCorrected): counts.corrected += 1
            case .success(.transformsSet): counts.set += 1
            case .failure: counts.refused += 1
            }
        }
        (turned, alreadyUpright, exifCorrected, transformsSet, refused) = (counts.turned, counts.upright, counts.corrected, counts.set, counts.refused)
    }

    /// `orient: 3 turned, 2 already upright, 1 refused`, naming HEIC metadata edits when any.
    var sentence: String {
        let corrected = exifCorrected > 0 ? ", \(exifCorrected) EXIF made to agree" : ""
        let set = transformsSet > 0 ? ", \(transformsSet) irot/imir set from EXIF" : ""
        return "orient: \(turned) turned, \(alreadyUpright) already upright\(corrected)\(set), \(refused) refused"
    }

    /// `{"summary": {...}}`.
    func jsonLine() -> String {
        struct Line: Encodable { let summary: BatchSummary }
        return (try? jsonText(Line(summary: self))) ?? "{}"
    }

    /// One file's JSON line: its path, outcome (`turned`, `alreadyUpright`, `exifCorrected`,
    /// `transformsSet` or `refused`), the orientation it had (for a HEIC: its irot/imir) and its
    /// new size (and warnings: what a re-encode lost), the EXIF orientation beside
    /// a HEIC's irot/imir (as it was, or as they now are), or the error.
    static func jsonLine(for outcome: ImageOrienter.BatchOutcome, message: (ImageFileError) -> String) -> String {
        struct Line: Encodable {
            let path: String
            let target: String
            let outcome: String
            var orientation: Int?
            var size: JSONSize?
            var exifOrientation: Int?
            var warnings: [String]?
            var error: String?
        }
        var line = Line(path: outcome.item.source, target: outcome.item.target, outcome: "refused")
        switch outcome.result {
        case .success(.alreadyUpright): line = Line(path: line.path, target: line.target, outcome: "alreadyUpright")
        case .success(.turned(let orientation, let size, let warnings)):
            line = Line(path: line.path, target: line.target, outcome: "turned", orientation: orientation.exifValue, size: JSONSize(size),
                        warnings: warnings.isEmpty ? nil : warnings.map(\.description))
        case .success(.exifCorrected(let from, let to)):
            line = Line(path: line.path, target: line.target, outcome: "exifCorrected", orientation: to.exifValue, exifOrientation: from.exifValue)
        case .success(.transformsSet(let from, let to)):
            line = Line(path: line.path, target: line.target, outcome: "transformsSet", orientation: from.exifValue, exifOrientation: to.exifValue)
        case .failure(let error): line.error = message(error)
        }
        return (try? jsonText(line)) ?? "{}"
    }
}
