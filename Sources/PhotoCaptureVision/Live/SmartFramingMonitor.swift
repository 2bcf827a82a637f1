import PhotoCapture
import Synchronization

/// Watches a camera's stream for people and recommends a framing (aspect ratio and zoom), like
/// Apple's `AVCaptureSmartFramingMonitor`. Reach it with
/// ``CaptureDevice/smartFramingMonitor``, enable framings, start it while the
/// session runs, and apply ``recommendedFraming`` with
/// `CaptureDevice.setDynamicAspectRatio(_:timeout:)` and then the zoom.
///
/// The analysis sees the whole field of view — the upright picture before the device's aspect
/// ratio and zoom — as Apple's does, so a friend who steps in beside a close-up that was
/// applied is seen and the framing widens for them; recommendations are crops of that whole
/// picture. While it monitors, the driver does not crop the stream (photos are cropped in the
/// conversion pass instead), and a stream the driver was cropping is restarted once uncropped.
public final class SmartFramingMonitor: Sendable {
    private struct State {
        var enabled: [Framing] = []
        var recommender: FramingRecommender?
        var analyzer: FaceAnalyzer?
        var detector: (any FaceDetecting)?
        /// The part of the whole picture analysed last: faces are followed within one.
        var fieldOfView: NormalizedRect?
        /// The counts of the last monitoring, kept after it stopped.
        var countsAtStop = (analysed: 0, dropped: 0)
    }
    private let state = Mutex(State())
    private let broadcast = Broadcast<Framing>()
    private let autoFramer = AutoFramer()
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

    /// The framing recommended now: always one of the enabled framings; nil when not monitoring,
    /// and from ``startMonitoring()`` until the first frame was analysed (a few frame intervals).
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
    /// enabled framing, and ``SmartFramingError/camera(_:)`` with
    /// `PhotoCaptureError.Code.sessionNotRunning` when the device's session is not running, as
    /// `PhotoOutput.capturePhoto(with:delegate:)` does; starting while monitoring does nothing.
    /// ``recommendedFraming`` stays nil until the first frame was analysed.
    public func startMonitoring() throws(SmartFramingError) {
        let (enabled, injected, running) = state.withLock { ($0.enabled, $0.detector, $0.analyzer != nil) }
        guard !running else { return }
        guard !enabled.isEmpty else { throw .noEnabledFramings }
        guard let device else { throw .camera(PhotoCaptureError(.notConnected)) }
        // Without a stream no frame is analysed, and a `for await` over the recommendations
        // would never end.
        guard device.isStreaming else { throw .camera(PhotoCaptureError(.sessionNotRunning)) }
        let detector: any FaceDetecting
        do throws(FaceDetectionError) {
            if let injected { detector = injected } else { detector = try DefaultFaceDetector() }
        } catch {
            throw .detector(error)
        }
        let analyzer = FaceAnalyzer(detector: detector, analysisSize: detector.analysisSize,
                                    wholeFieldOfView: true) { [weak self] analysed in
            self?.analysed(analysed)
        }
        state.withLock { $0.analyzer = analyzer; $0.recommender = nil; $0.fieldOfView = nil }
        do throws(PhotoCaptureError) {
            try analyzer.video.attach(to: device)
        } catch {
            state.withLock { $0.analyzer = nil }
            throw .camera(error)
        }
    }

    /// Whether the camera applies each recommendation itself as it comes (auto-framing, like
    /// Center Stage): see ``setAutoFramingEnabled(_:)``.
    public var isAutoFramingEnabled: Bool { autoFramer.isRunning }

    /// Turns auto-framing on or off. On, the monitor applies the current recommendation and each
    /// new one to its camera with `CaptureDevice.setFraming(aspectRatio:videoZoomFactor:timeout:)`,
    /// easing the zoom over a few frames (at most 8) rather than jumping; the stream keeps
    /// running and photos are never held for it. Control is cooperative, like Center Stage's
    /// `.cooperative` mode: the app may still set a framing, and the next recommendation eases
    /// from wherever the camera is. Starts monitoring when the monitor is not (with every
    /// supported framing when none is enabled); ``stopMonitoring()`` turns it off too. Off, the
    /// framing in effect stays.
    public func setAutoFramingEnabled(_ enabled: Bool) throws(SmartFramingError) {
        guard enabled else {
            autoFramer.stop()
            return
        }
        guard !autoFramer.isRunning else { return }
        if !isMonitoring {
            if enabledFramings.isEmpty { try setEnabledFramings(supportedFramings) }
            try startMonitoring()
        }
        guard let device else { throw .camera(PhotoCaptureError(.notConnected)) }
        autoFramer.start(applying: broadcast.stream(keepingNewest: 1), current: recommendedFraming, to: device)
    }

    /// Each framing auto-framing applies from now on (once its easing is done); finishes when
    /// auto-framing stops.
    public func appliedFramings() -> AsyncStream<AppliedFraming> { autoFramer.appliedFramings() }

    /// Stops watching; ``recommendedFraming`` becomes nil and the recommendation streams finish.
    public func stopMonitoring() {
        autoFramer.stop()
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
        let fieldOfView = analysed.fieldOfView
        // The whole upright picture at the analysis' scale (larger than the picture only while
        // the driver still crops the stream).
        let whole = PixelSize(width: Int((Double(analysed.pictureSize.width) / fieldOfView.width).rounded()),
                              height: Int((Double(analysed.pictureSize.height) / fieldOfView.height).rounded()))
        let (change, reset) = state.withLock { (state) -> (Framing?, FaceAnalyzer?) in
            guard let analyzer = state.analyzer else { return (nil, nil) }
            // Another part of the picture (the driver's crop went): faces followed so far are
            // in other coordinates.
            let moved = state.fieldOfView.map { $0 != fieldOfView } ?? false
            state.fieldOfView = fieldOfView
            if state.recommender?.uprightSize != whole {
                state.recommender = FramingRecommender(enabledFramings: state.enabled, uprightSize: whole)
            }
            guard !moved else { return (nil, analyzer) }
            let faces = analysed.result.framingFaces.map { $0.bounds.absolute(in: fieldOfView) }
            return (state.recommender?.update(faces: faces, at: Double(analysed.timestamp) / 1e9), nil)
        }
        reset?.reset()
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
