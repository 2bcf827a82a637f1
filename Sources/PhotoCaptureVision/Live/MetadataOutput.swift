import PhotoCapture
import Synchronization

/// Reports the faces in a running session's stream, tracked with stable IDs, like Apple's
/// `AVCaptureMetadataOutput` with face objects. Add it with
/// ``CaptureSession/addOutput(_:)``.
///
/// ```swift
/// let faces = try MetadataOutput()         // YuNet (OpenCV's Haar cascade if it cannot load)
/// try session.addOutput(faces)
/// try await session.startRunning()
/// for await frame in faces.faces() where !frame.faces.isEmpty {
///     print(frame.faces.map(\.bounds))     // normalised to the upright picture
///     break
/// }
/// ```
///
/// Each analysed frame is delivered three ways: to the delegate
/// (``setMetadataObjectsDelegate(_:)``, as Apple's output does), through the async stream
/// ``faces()``, and as ``latestFaces``. The analysis runs on pictures shrunk to the analysis size,
/// on a thread of its own; frames arriving while it is busy are skipped (counted in
/// ``droppedFrameCount``), never delaying the camera or a photo.
public final class MetadataOutput: Sendable {
    private struct State {
        var latest: [MetadataFaceObject] = []
        var types: [MetadataObjectType] = MetadataOutput.availableTypes
        var delegate: (any MetadataOutputObjectsDelegate)?
    }
    private static let availableTypes: [MetadataObjectType] = [.face]
    private let broadcast = Broadcast<FaceMetadata>()
    private let state = Mutex(State())
    private let analyzerBox = Mutex<FaceAnalyzer?>(nil)

    /// An output finding faces with `detector` on pictures shrunk to fit `analysisSize` (the
    /// detector's ``FaceDetecting/analysisSize`` when nil).
    public init(detector: any FaceDetecting, analysisSize: PixelSize? = nil) {
        let analyzer = FaceAnalyzer(detector: detector, analysisSize: analysisSize ?? detector.analysisSize) { [weak self] analysed in
            guard let self else { return }
            let faces = analysed.result.faces.map {
                MetadataFaceObject(bounds: $0.bounds, landmarks: $0.landmarks, detectedObjectID: $0.detectedObjectID,
                                   timestamp: analysed.timestamp, frameSequence: analysed.sequence)
            }
            let frame = FaceMetadata(timestamp: analysed.timestamp, frameSequence: analysed.sequence, faces: faces)
            let delegate = self.state.withLock { state in
                state.latest = faces
                return state.delegate
            }
            delegate?.metadataOutput(self, didOutput: faces, from: frame)
            self.broadcast.yield(frame)
        }
        analyzerBox.withLock { $0 = analyzer }
    }

    /// An output with the ``DefaultFaceDetector``: YuNet, or OpenCV's Haar cascade when YuNet
    /// cannot load; throws ``FaceDetectionError/modelUnreadable(path:message:)`` when neither can
    /// (the cascade's file comes from Debian's `opencv-data`).
    public convenience init() throws(FaceDetectionError) {
        self.init(detector: try DefaultFaceDetector())
    }

    /// The name of the detector finding the faces (``FaceDetecting/detectorName``): `YuNet`,
    /// `Haar alt2`, ….
    public var faceDetectorName: String { analyzer.detectorName }

    var analyzer: FaceAnalyzer { analyzerBox.withLock { $0! } }

    /// The kinds of object this output can report: faces.
    public var availableMetadataObjectTypes: [MetadataObjectType] { Self.availableTypes }

    /// The kinds of object reported, a subset of ``availableMetadataObjectTypes``. Unlike Apple's
    /// output, whose list starts empty, it starts with every available type (faces): an output
    /// added for faces reports them without more ado. Set it empty to stop the analysis (no
    /// processor time spent, nothing delivered) while the output stays in the session.
    public var metadataObjectTypes: [MetadataObjectType] {
        get { state.withLock { $0.types } }
        set {
            state.withLock { $0.types = newValue }
            analyzer.isPaused = newValue.isEmpty
        }
    }

    /// The object that receives each analysed frame's objects, if any.
    public var metadataObjectsDelegate: (any MetadataOutputObjectsDelegate)? { state.withLock { $0.delegate } }

    /// Sets the object that receives each analysed frame's objects (held until replaced); nil
    /// stops the calls. Like Apple's `setMetadataObjectsDelegate(_:queue:)`, without a queue:
    /// calls come on the output's analysis thread.
    public func setMetadataObjectsDelegate(_ delegate: (any MetadataOutputObjectsDelegate)?) {
        state.withLock { $0.delegate = delegate }
    }

    /// The faces of the latest analysed frame.
    public var latestFaces: [MetadataFaceObject] { state.withLock { $0.latest } }

    /// The faces of every analysed frame from now on, empty frames included (the newest four kept
    /// when the reader is slow). Finishes when the output is removed from its session.
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
