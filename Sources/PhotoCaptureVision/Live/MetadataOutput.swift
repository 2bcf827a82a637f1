import PhotoCapture
import Synchronization

/// Reports the faces in a running session's stream, tracked with stable IDs, like Apple's
/// `AVCaptureMetadataOutput` with face objects. Add it with
/// ``PhotoCapture/CaptureSession/addOutput(_:)-(MetadataOutput)``.
public final class MetadataOutput: Sendable {
    private struct State {
        var latest: [MetadataFaceObject] = []
    }
    private let broadcast = Broadcast<FaceMetadata>()
    private let state = Mutex(State())
    private let analyzerBox = Mutex<FaceAnalyzer?>(nil)

    /// An output finding faces with `detector` on pictures shrunk to fit `analysisSize`.
    public init(detector: any FaceDetecting, analysisSize: PixelSize = PixelSize(width: 320, height: 240)) {
        let analyzer = FaceAnalyzer(detector: detector, analysisSize: analysisSize) { [weak self] analysed in
            guard let self else { return }
            let faces = analysed.result.faces.map {
                MetadataFaceObject(bounds: $0.bounds, detectedObjectID: $0.detectedObjectID,
                                   timestamp: analysed.timestamp, frameSequence: analysed.sequence)
            }
            self.state.withLock { $0.latest = faces }
            self.broadcast.yield(FaceMetadata(timestamp: analysed.timestamp, frameSequence: analysed.sequence, faces: faces))
        }
        analyzerBox.withLock { $0 = analyzer }
    }

    /// An output with OpenCV's Haar frontal-face detector.
    public convenience init() throws(FaceDetectionError) {
        self.init(detector: try CascadeFaceDetector())
    }

    var analyzer: FaceAnalyzer { analyzerBox.withLock { $0! } }

    /// The faces of the latest analysed frame.
    public var latestFaces: [MetadataFaceObject] { state.withLock { $0.latest } }

    /// The faces of every analysed frame from now on, empty frames included (newest kept when the
    /// reader is slow). Finishes when the output is removed.
    public func faces() -> AsyncStream<FaceMetadata> {
        broadcast.stream(keepingNewest: 4)
    }

    /// Frames analysed since the output was added.
    public var analysedFrameCount: Int { analyzer.analysedFrameCount }
    /// Frames skipped because the analysis was busy.
    public var droppedFrameCount: Int { analyzer.video.droppedFrameCount }

    func finish() {
        broadcast.finish()
        analyzer.reset()
    }
}

extension CaptureSession {
    /// Adds a metadata output: from now on it analyses the camera's frames while the session runs.
    public func addOutput(_ output: MetadataOutput) throws(PhotoCaptureError) {
        try addOutput(output.analyzer.video)
    }

    /// Removes a metadata output; its face streams finish.
    public func removeOutput(_ output: MetadataOutput) {
        removeOutput(output.analyzer.video)
        output.finish()
    }
}
