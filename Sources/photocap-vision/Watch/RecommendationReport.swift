import PhotoCaptureVision

/// `watch --smart-framing --json`'s line for a new recommendation:
/// `{"recommendation":{"framing":"3:4 ×2","aspectRatio":"3:4","zoomFactor":2,"elapsed":1.4}}`.
struct RecommendationReport: Encodable {
    struct Recommendation: Encodable {
        /// `3:4 ×2`, as `shoot --smart-framing` reports it.
        let framing: String
        let aspectRatio: String
        let zoomFactor: Double
        /// Seconds since the monitor started, to a tenth.
        let elapsed: Double
    }
    let recommendation: Recommendation

    init(_ framing: Framing, elapsed: Double) {
        recommendation = Recommendation(framing: "\(framing)", aspectRatio: "\(framing.aspectRatio)",
                                        zoomFactor: framing.zoomFactor, elapsed: (elapsed * 10).rounded() / 10)
    }
}
