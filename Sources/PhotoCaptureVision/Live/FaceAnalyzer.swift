import PhotoCapture
import Synchronization

/// Runs the face analysis on a camera's stream: a video data output delivers the upright
/// picture — after the current crop, or whole for the smart framing monitor — shrunk to the
/// analysis size, on its own queue; detection
/// runs right there, so frames arriving meanwhile replace the waiting one (dropped, counted) and
/// neither the camera nor a photo ever waits for it.
final class FaceAnalyzer: VideoDataOutputDelegate {
    /// What each analysed frame produced.
    struct Analysed: Sendable {
        let result: FaceAnalysis.Result
        let timestamp: UInt64
        let sequence: UInt64
        /// The analysed picture's size (upright, after the crop, shrunk).
        let pictureSize: PixelSize
        /// The part of the whole upright picture analysed.
        let fieldOfView: NormalizedRect
    }

    let video = VideoDataOutput()
    /// The detector's ``FaceDetecting/detectorName``.
    let detectorName: String
    private let analysis: Mutex<FaceAnalysis>
    private let handler: @Sendable (Analysed) -> Void
    private let failures = Mutex<[FaceDetectionError]>([])
    private let analysed = Atomic<Int>(0)
    private let paused = Atomic<Bool>(false)

    init(detector: any FaceDetecting, analysisSize: PixelSize, wholeFieldOfView: Bool = false,
         handler: @escaping @Sendable (Analysed) -> Void) {
        analysis = Mutex(FaceAnalysis(detector: detector, analysisSize: analysisSize))
        detectorName = detector.detectorName
        self.handler = handler
        video.deliversWholeFieldOfView = wholeFieldOfView
        video.maximumDimensions = analysisSize
        video.videoPixelFormat = .i420
        video.alwaysDiscardsLateVideoFrames = true
        video.setSampleBufferDelegate(self)
    }

    /// Whether frames are skipped unanalysed (the metadata output asks for no objects).
    var isPaused: Bool {
        get { paused.load(ordering: .relaxed) }
        set { paused.store(newValue, ordering: .relaxed) }
    }

    /// Frames analysed so far.
    var analysedFrameCount: Int { analysed.load(ordering: .relaxed) }

    func videoDataOutput(_ output: VideoDataOutput, didOutput frame: VideoFrame) {
        guard !isPaused else { return }
        let plane = frame.planes[0]
        var luma = [UInt8]()
        luma.reserveCapacity(plane.size.area)
        for row in 0..<plane.size.height {
            luma += plane.bytes[row * plane.bytesPerRow..<row * plane.bytesPerRow + plane.size.width]
        }
        let time = Double(frame.timestamp) / 1e9
        do {
            let result = try analysis.withLock { (analysis) throws(FaceDetectionError) in
                try analysis.analyse(LumaPicture(size: plane.size, pixels: luma), at: time)
            }
            analysed.add(1, ordering: .relaxed)
            handler(Analysed(result: result, timestamp: frame.timestamp, sequence: frame.sequence, pictureSize: plane.size,
                             fieldOfView: frame.fieldOfView))
        } catch {
            failures.withLock { $0.append(error) }
        }
    }

    /// Forgets every tracked face.
    func reset() { analysis.withLock { $0.reset() } }
}
