import Foundation
import PhotoCapture

/// What a batch of `photocap orient` came to: files turned, already upright and refused.
struct BatchSummary: Encodable {
    let turned: Int
    let alreadyUpright: Int
    let refused: Int

    init(_ outcomes: [ImageOrienter.BatchOutcome]) {
        var counts = (turned: 0, upright: 0, refused: 0)
        for outcome in outcomes {
            switch outcome.result {
            case .success(.turned): counts.turned += 1
            case .success(.alreadyUpright): counts.upright += 1
            case .failure: counts.refused += 1
            }
        }
        (turned, alreadyUpright, refused) = (counts.turned, counts.upright, counts.refused)
    }

    /// `orient: 3 turned, 2 already upright, 1 refused`.
    var sentence: String { "orient: \(turned) turned, \(alreadyUpright) already upright, \(refused) refused" }

    /// `{"summary": {...}}`.
    func jsonLine() -> String {
        struct Line: Encodable { let summary: BatchSummary }
        return (try? jsonText(Line(summary: self))) ?? "{}"
    }

    /// One file's JSON line: its path, outcome (`turned`, `alreadyUpright` or `refused`), the
    /// orientation it had and its new size, or the error.
    static func jsonLine(for outcome: ImageOrienter.BatchOutcome, message: (PhotoCaptureError) -> String) -> String {
        struct Line: Encodable {
            let path: String
            let target: String
            let outcome: String
            var orientation: Int?
            var size: JSONSize?
            var error: String?
        }
        var line = Line(path: outcome.item.source, target: outcome.item.target, outcome: "refused")
        switch outcome.result {
        case .success(.alreadyUpright): line = Line(path: line.path, target: line.target, outcome: "alreadyUpright")
        case .success(.turned(let orientation, let size)):
            line = Line(path: line.path, target: line.target, outcome: "turned", orientation: orientation.exifValue, size: JSONSize(size))
        case .failure(let error): line.error = message(error)
        }
        return (try? jsonText(line)) ?? "{}"
    }
}
