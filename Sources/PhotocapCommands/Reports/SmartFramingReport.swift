/// `--json`'s report of `--smart-framing`: the framing applied and the faces in view.
package struct SmartFramingReport: Encodable {
    /// `3:4 ×2`; nil when the monitor recommended nothing in time.
    package let framing: String?
    package let aspectRatio: String?
    package let zoomFactor: Double?
    /// Seconds waited for the recommendation.
    package let waited: Double
    /// The faces of the last analysed frame before the framing was applied, in metadata
    /// coordinates (normalised to the upright picture before the framing's crop).
    package let faces: [FaceReport]
    package let analysedFrames: Int
    package let droppedFrames: Int

    package init(framing: String?, aspectRatio: String?, zoomFactor: Double?, waited: Double, faces: [FaceReport],
                 analysedFrames: Int, droppedFrames: Int) {
        (self.framing, self.aspectRatio, self.zoomFactor, self.waited) = (framing, aspectRatio, zoomFactor, waited)
        (self.faces, self.analysedFrames, self.droppedFrames) = (faces, analysedFrames, droppedFrames)
    }
}
