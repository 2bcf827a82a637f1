import PhotoCapture

/// One analysis step, as pure logic: detect faces in an upright grey picture (shrunk to the
/// analysis size), follow them with a ``FaceTracker``, and say which faces to report and which
/// the framing should consider.
public struct FaceAnalysis: Sendable {
    /// What one analysis found.
    public struct Result: Sendable {
        /// The confirmed faces detected in this picture (what the metadata output reports),
        /// normalised to the whole upright picture.
        public var faces: [TrackedFace]
        /// The confirmed faces seen within ``FaceAnalysis/framingMemory`` seconds: a missed
        /// detection does not make a person vanish for the framing.
        public var framingFaces: [TrackedFace]
    }

    /// The detector.
    public let detector: any FaceDetecting
    /// The largest picture analysed; bigger ones are shrunk to fit.
    public let analysisSize: PixelSize
    /// Seconds a face unseen still counts for the framing.
    public var framingMemory = 0.3
    private var tracker = FaceTracker()

    /// An analysis with `detector` on pictures shrunk to fit `analysisSize` (the detector's
    /// ``FaceDetecting/analysisSize`` when nil).
    public init(detector: any FaceDetecting, analysisSize: PixelSize? = nil) {
        (self.detector, self.analysisSize) = (detector, analysisSize ?? detector.analysisSize)
    }

    /// Analyses `picture` (upright, whole) taken at `time` seconds.
    public mutating func analyse(_ picture: LumaPicture, at time: Double) throws(FaceDetectionError) -> Result {
        let detections = try detector.detectFaces(in: picture.downscaled(toFit: analysisSize))
        let confirmed = tracker.update(faces: detections, at: time)
        return Result(faces: confirmed.filter { $0.lastSeen == time },
                      framingFaces: confirmed.filter { time - $0.lastSeen <= framingMemory })
    }

    /// Forgets every face (IDs keep increasing).
    public mutating func reset() { tracker.reset() }
}
