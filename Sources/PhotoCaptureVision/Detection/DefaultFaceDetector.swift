/// The face detector the library uses unless told otherwise: ``YuNetFaceDetector`` when its model
/// loads, OpenCV's Haar cascade (``CascadeFaceDetector`` with its defaults) when it does not.
///
/// YuNet finds faces the cascade misses (turned, half hidden, small) in a fraction of its time;
/// `photocap-benchmark` compares the two on the photos marked by hand. Which of the two runs is
/// ``detectorName``; why YuNet does not is ``yuNetFailure``.
public struct DefaultFaceDetector: FaceDetecting {
    /// The detector in use: YuNet, or the Haar cascade.
    public let detector: any FaceDetecting
    /// Why YuNet could not be loaded, when the Haar cascade runs instead; nil when YuNet runs.
    public let yuNetFailure: FaceDetectionError?

    /// YuNet with `model` (the one built in by default), or the Haar cascade when that cannot
    /// load. Throws ``FaceDetectionError/modelUnreadable(path:message:)`` only when neither loads
    /// (the cascade's file comes from Debian's `opencv-data`).
    public init(yuNetModel: YuNetFaceDetector.Model = .builtIn) throws(FaceDetectionError) {
        do throws(FaceDetectionError) {
            detector = try YuNetFaceDetector(model: yuNetModel)
            yuNetFailure = nil
        } catch {
            detector = try CascadeFaceDetector()
            yuNetFailure = error
        }
    }

    /// The name of the detector in use: `YuNet` or `Haar alt2`.
    public var detectorName: String { detector.detectorName }

    /// The analysis size of the detector in use.
    public var analysisSize: PixelSize { detector.analysisSize }

    /// The faces ``detector`` finds in `picture`.
    public func detectFaces(in picture: LumaPicture) throws(FaceDetectionError) -> [DetectedFace] {
        try detector.detectFaces(in: picture)
    }
}
