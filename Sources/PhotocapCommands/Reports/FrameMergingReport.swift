import PhotoCapture

/// The `frameMerging` object of a photo's `--json` line: the prioritization asked for, the
/// frames planned and merged (the photo's own included), and why fewer, when they are.
struct FrameMergingReport: Encodable {
    let prioritization: String
    let framesPlanned: Int
    let framesMerged: Int
    let limitation: String?

    init(_ merging: FrameMerging) {
        prioritization = merging.prioritization.description
        framesPlanned = merging.framesPlanned
        framesMerged = merging.framesMerged
        limitation = merging.limitation?.rawValue
    }
}
