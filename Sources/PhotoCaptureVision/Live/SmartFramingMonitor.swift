import PhotoCapture
import Synchronization

/// Watches a camera's stream for people and recommends a framing (aspect ratio and zoom), like
/// Apple's `AVCaptureSmartFramingMonitor`. Reach it with
/// ``CaptureDevice/smartFramingMonitor``, enable framings, start it while the
/// session runs, and apply ``recommendedFraming`` with
/// `CaptureDevice.setDynamicAspectRatio(_:timeout:)` and then the zoom.
///
/// The analysis sees the picture after the device's current crop: people outside it are not
/// seen, so apply a recommendation when you are about to shoot.
public final class SmartFramingMonitor: Sendable {
    private struct State {
        var enabled: [Framing] = []
        var recommender: FramingRecommender?
        var analyzer: FaceAnalyzer?
        var detector: (any FaceDetecting)?
        var uprightSize: PixelSize?
        /// The counts of the last monitoring, kept after it stopped.
        var countsAtStop = (analysed: 0, dropped: 0)
    }
    private let state = Mutex(State())
    private let broadcast = Broadcast<Framing>()
    // Weak: the monitor's analysis output is attached to the device's stream, and the registry
    // below outlives devices; a strong reference would keep a camera (and its descriptor) open.
    private weak let device: CaptureDevice?

    init(device: CaptureDevice) {
        self.device = device
    }

    /// The framings the monitor can recommend: every supported aspect ratio at zoom 1, 1.5 and 2.
    public var supportedFramings: [Framing] { Framing.all }

    /// The framings it may recommend; empty by default.
    public var enabledFramings: [Framing] { state.withLock { $0.enabled } }

    /// Sets ``enabledFramings``; a framing outside ``supportedFramings`` is refused. Takes effect
    /// at the next ``startMonitoring()``.
    public func setEnabledFramings(_ framings: [Framing]) throws(SmartFramingError) {
        if let unsupported = framings.first(where: { !supportedFramings.contains($0) }) {
            throw .unsupportedFraming(unsupported)
        }
        state.withLock { $0.enabled = framings }
    }

    /// Uses `detector` instead of OpenCV's from the next ``startMonitoring()`` (tests inject
    /// detections with it).
    public func setFaceDetector(_ detector: any FaceDetecting) {
        state.withLock { $0.detector = detector }
    }

    /// The name of the detector finding the people (``FaceDetecting/detectorName``) while
    /// monitoring: `YuNet` unless it could not load; nil when not monitoring.
    public var faceDetectorName: String? { state.withLock { $0.analyzer?.detectorName } }

    /// Whether the monitor is watching the stream.
    public var isMonitoring: Bool { state.withLock { $0.analyzer != nil } }

    /// The framing recommended now: always one of the enabled framings; nil when not monitoring.
    public var recommendedFraming: Framing? { state.withLock { $0.analyzer == nil ? nil : $0.recommender?.recommended } }

    /// Each new recommendation from now on (changes only). Finishes at ``stopMonitoring()``.
    public func recommendations() -> AsyncStream<Framing> {
        broadcast.stream(keepingNewest: 8)
    }

    /// Frames analysed since monitoring last started.
    public var analysedFrameCount: Int { state.withLock { $0.analyzer?.analysedFrameCount ?? $0.countsAtStop.analysed } }
    /// Frames skipped because the analysis was busy, since monitoring last started.
    public var droppedFrameCount: Int { state.withLock { $0.analyzer?.video.droppedFrameCount ?? $0.countsAtStop.dropped } }

    /// Starts watching the device's stream. Throws ``SmartFramingError/noEnabledFramings`` with no
    /// enabled framing; starting while monitoring does nothing.
    public func startMonitoring() throws(SmartFramingError) {
        let (enabled, injected, running) = state.withLock { ($0.enabled, $0.detector, $0.analyzer != nil) }
        guard !running else { return }
        guard !enabled.isEmpty else { throw .noEnabledFramings }
        let detector: any FaceDetecting
        do throws(FaceDetectionError) {
            if let injected { detector = injected } else { detector = try DefaultFaceDetector() }
        } catch {
            throw .detector(error)
        }
        let analyzer = FaceAnalyzer(detector: detector, analysisSize: PixelSize(width: 320, height: 240)) { [weak self] analysed in
            self?.analysed(analysed)
        }
        state.withLock { $0.analyzer = analyzer; $0.recommender = nil }
        do throws(PhotoCaptureError) {
            guard let device else { throw PhotoCaptureError(.notConnected) }
            try analyzer.video.attach(to: device)
        } catch {
            state.withLock { $0.analyzer = nil }
            throw .camera(error)
        }
    }

    /// Stops watching; ``recommendedFraming`` becomes nil and the recommendation streams finish.
    public func stopMonitoring() {
        let analyzer = state.withLock { state in
            if let analyzer = state.analyzer {
                state.countsAtStop = (analyzer.analysedFrameCount, analyzer.video.droppedFrameCount)
            }
            defer { (state.analyzer, state.recommender) = (nil, nil) }
            return state.analyzer
        }
        analyzer?.video.detach()
        broadcast.finish()
    }

    /// One analysed frame: faces into the whole upright picture's coordinates, then the algorithm.
    private func analysed(_ analysed: FaceAnalyzer.Analysed) {
        guard let device else { return }
        let (ratio, zoom) = (device.dynamicAspectRatio, device.videoZoomFactor)
        let change = state.withLock { (state) -> Framing? in
            guard state.analyzer != nil else { return nil }
            // The picture is the whole upright frame unless the device crops; remember its size then.
            if ratio == nil && zoom == 1 { state.uprightSize = analysed.pictureSize }
            guard let whole = state.uprightSize else { return nil }
            let crop = ratio.map { Framing(aspectRatio: $0, zoomFactor: zoom).crop(inUpright: whole) } ?? .whole
            if state.recommender == nil { state.recommender = FramingRecommender(enabledFramings: state.enabled, uprightSize: whole) }
            let faces = analysed.result.framingFaces.map { $0.bounds.absolute(in: crop) }
            return state.recommender?.update(faces: faces, at: Double(analysed.timestamp) / 1e9)
        }
        if let change { broadcast.yield(change) }
    }
}

extension CaptureDevice {
    /// The device's smart framing monitor (one per device).
    public var smartFramingMonitor: SmartFramingMonitor {
        SmartFramingMonitors.shared.monitor(for: self)
    }
}

extension CaptureDevice.Format {
    /// Whether the smart framing monitor can watch a stream of this format: every processed
    /// format (RAW Bayer streams are not analysed).
    public var isSmartFramingSupported: Bool { !pixelFormat.isBayer }
}

/// One monitor per device, kept for the device's lifetime (entries of devices that are gone
/// are dropped, so an identifier reused by a new device gets a new monitor).
private final class SmartFramingMonitors: Sendable {
    private struct Entry {
        weak var device: CaptureDevice?
        let monitor: SmartFramingMonitor
    }
    static let shared = SmartFramingMonitors()
    private let monitors = Mutex<[ObjectIdentifier: Entry]>([:])

    func monitor(for device: CaptureDevice) -> SmartFramingMonitor {
        monitors.withLock { monitors in
            if let entry = monitors[ObjectIdentifier(device)], entry.device === device { return entry.monitor }
            monitors = monitors.filter { $0.value.device != nil }
            let monitor = SmartFramingMonitor(device: device)
            monitors[ObjectIdentifier(device)] = Entry(device: device, monitor: monitor)
            return monitor
        }
    }
}
