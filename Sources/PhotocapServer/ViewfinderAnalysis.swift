import PhotoCapture
import PhotoCaptureVision
import Synchronization

/// The faces and the smart-framing recommendation on the live session, for the page to draw
/// over the viewfinder, and auto-framing on and off.
///
/// It reuses the library's analysis: a ``MetadataOutput`` for the faces (tracked, in the
/// viewfinder's coordinates) and the device's ``SmartFramingMonitor`` for the recommendation.
/// Each runs on its own queue on frames shrunk to the analysis size and keeps the newest frame
/// only, so a photo never waits for it. Neither runs until a viewer asks: each starts at the
/// first request for it and pauses after ``idleAfter`` without one (the monitor keeps running
/// while auto-framing is on, which needs it).
package final class ViewfinderAnalysis: Sendable {
    private struct State {
        var faces: MetadataOutput?
        /// Why the face output could not start (no detector model); reported, not retried.
        var facesFailure: String?
        var facesAsked: ContinuousClock.Instant?
        var framingAsked: ContinuousClock.Instant?
        var janitor: Task<Void, Never>?
    }
    private let state = Mutex(State())
    private let session: CaptureSession
    private let camera: CaptureDevice
    private let viewfinder: Viewfinder
    /// How long an analysis runs after the last request for it.
    package static let idleAfter = Duration.seconds(5)

    /// The analysis of `camera`'s stream in `session`, whose frames `viewfinder` shows.
    init(session: CaptureSession, camera: CaptureDevice, viewfinder: Viewfinder) {
        self.session = session
        self.camera = camera
        self.viewfinder = viewfinder
    }

    /// Starts pausing the analyses nobody asked for lately.
    func start() {
        let janitor = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                self?.pauseIdle(now: .now)
            }
        }
        state.withLock { $0.janitor = janitor }
    }

    /// Stops both analyses and auto-framing.
    func stop() {
        let (janitor, faces) = state.withLock { state in
            defer { state.faces = nil; state.janitor = nil }
            return (state.janitor, state.faces)
        }
        janitor?.cancel()
        if let faces { faces.metadataObjectTypes = [] }
        camera.smartFramingMonitor.stopMonitoring()
    }

    /// The analysis now, as the JSON of `GET /api/analysis`: the faces when `faces` (starting
    /// their analysis if it is not running), the recommendation when `framing` (starting the
    /// monitor), and always the auto-framing state and the viewfinder's field of view.
    package func report(faces wantsFaces: Bool, framing wantsFraming: Bool) -> AnalysisReport {
        let now = ContinuousClock.now
        let monitor = camera.smartFramingMonitor
        let (output, facesFailure, framingFailure) = state.withLock { state -> (MetadataOutput?, String?, String?) in
            var framingFailure: String?
            if wantsFaces {
                state.facesAsked = now
                if state.faces == nil && state.facesFailure == nil {
                    do {
                        let output = try MetadataOutput()
                        try session.addOutput(output)
                        state.faces = output
                    } catch {
                        state.facesFailure = "the faces cannot be found: \(error)"
                    }
                }
                if let faces = state.faces, faces.metadataObjectTypes.isEmpty { faces.metadataObjectTypes = [.face] }
            }
            if wantsFraming {
                state.framingAsked = now
                if !monitor.isMonitoring {
                    do throws(SmartFramingError) {
                        if monitor.enabledFramings.isEmpty { try monitor.setEnabledFramings(monitor.supportedFramings) }
                        try monitor.startMonitoring()
                    } catch {
                        framingFailure = "the framing cannot be recommended: \(error)"
                    }
                }
            }
            return (state.faces, state.facesFailure, framingFailure)
        }
        let shown = viewfinder.newestFrame
        let fieldOfView = shown?.fieldOfView ?? NormalizedRect(x: 0, y: 0, width: 1, height: 1)
        var report = AnalysisReport(viewfinderSequence: shown?.sequence, fieldOfView: AnalysisReport.Box(fieldOfView),
                                    autoFraming: monitor.isAutoFramingEnabled,
                                    applied: .init(aspectRatio: camera.dynamicAspectRatio.map { "\($0)" },
                                                   zoomFactor: camera.videoZoomFactor))
        if wantsFaces {
            if let output {
                let faces = output.latestFaces
                report.faces = .init(detector: output.faceDetectorName, frameSequence: faces.first?.frameSequence,
                                     faces: faces.map { .init(id: $0.detectedObjectID, bounds: $0.bounds) })
            } else {
                report.faces = .init(error: facesFailure)
            }
        }
        if wantsFraming {
            var framing = AnalysisReport.FramingReport(error: framingFailure)
            framing.detector = monitor.faceDetectorName
            framing.analysedFrames = monitor.analysedFrameCount
            if let recommended = monitor.recommendedFraming, let whole = camera.streamingUprightSize {
                framing.recommended = .init(recommended, whole: whole, shownPart: fieldOfView)
            }
            report.framing = framing
        }
        return report
    }

    /// Turns auto-framing on (starting the monitor with every framing) or off (the framing in
    /// effect stays); answers as ``report(faces:framing:)`` does with the recommendation.
    package func setAutoFraming(_ enabled: Bool) throws(ServerError) -> AnalysisReport {
        let monitor = camera.smartFramingMonitor
        try state.withLock { (state) throws(ServerError) in
            state.framingAsked = .now
            do throws(SmartFramingError) {
                if enabled && !monitor.isMonitoring && monitor.enabledFramings.isEmpty {
                    try monitor.setEnabledFramings(monitor.supportedFramings)
                }
                try monitor.setAutoFramingEnabled(enabled)
            } catch {
                throw ServerError(.conflict, "auto-framing cannot be turned \(enabled ? "on" : "off"): \(error)")
            }
        }
        return report(faces: false, framing: true)
    }

    /// Pauses the face analysis and stops the monitor (unless auto-framing needs it) when no
    /// request asked for them within ``idleAfter``.
    package func pauseIdle(now: ContinuousClock.Instant) {
        let monitor = camera.smartFramingMonitor
        state.withLock { state in
            if let asked = state.facesAsked, now - asked > Self.idleAfter {
                state.facesAsked = nil
                state.faces?.metadataObjectTypes = []
            }
            if let asked = state.framingAsked, now - asked > Self.idleAfter, !monitor.isAutoFramingEnabled {
                state.framingAsked = nil
                monitor.stopMonitoring()
            }
        }
    }

    /// Whether the face analysis and the monitor run now.
    package var running: (faces: Bool, framing: Bool) {
        let faces = state.withLock { $0.faces.map { !$0.metadataObjectTypes.isEmpty } ?? false }
        return (faces, camera.smartFramingMonitor.isMonitoring)
    }
}

/// The answer of `GET /api/analysis` and `PUT /api/auto-framing`. Every rectangle is normalised
/// to the upright viewfinder image as it is shown (0,0 its top left, 1,1 its bottom right).
package struct AnalysisReport: Encodable, Sendable {
    /// A rectangle normalised to the viewfinder image.
    package struct Box: Encodable, Sendable, Equatable {
        package let x, y, width, height: Double

        init(_ rect: NormalizedRect) {
            (x, y, width, height) = (Self.rounded(rect.x), Self.rounded(rect.y), Self.rounded(rect.width), Self.rounded(rect.height))
        }

        static func rounded(_ value: Double) -> Double { (value * 10000).rounded() / 10000 }

        /// `x,y,width,height`: the `X-Field-Of-View` header of the viewfinder's frames.
        var header: String { "\(x),\(y),\(width),\(height)" }
    }
    /// One tracked face.
    package struct Face: Encodable, Sendable {
        /// The tracker's ID: the same person keeps it from frame to frame.
        package let id: Int
        /// Where the face is.
        package let bounds: Box

        init(id: Int, bounds: NormalizedRect) {
            self.id = id
            self.bounds = Box(bounds)
        }
    }
    /// The faces of the newest analysed frame.
    package struct FacesReport: Encodable, Sendable {
        /// The detector, `YuNet` unless it could not load.
        package var detector: String?
        /// The sequence number of the frame the faces were found in (nil with no face).
        package var frameSequence: UInt64?
        /// The faces found.
        package var faces: [Face] = []
        /// Why faces cannot be found, if they cannot.
        package var error: String?

        init(detector: String? = nil, frameSequence: UInt64? = nil, faces: [Face] = [], error: String? = nil) {
            (self.detector, self.frameSequence, self.faces, self.error) = (detector, frameSequence, faces, error)
        }
    }
    /// A framing and the part of the viewfinder it keeps.
    package struct FramingBox: Encodable, Sendable {
        /// `16:9`, `1:1`….
        package let aspectRatio: String
        /// 1, 1.5 or 2.
        package let zoomFactor: Double
        /// The part of the viewfinder image the framing keeps; beyond 0…1 where the viewfinder
        /// shows less than the framing (auto-framing applied a closer one).
        package let bounds: Box

        init(_ framing: Framing, whole: PixelSize, shownPart: NormalizedRect) {
            aspectRatio = "\(framing.aspectRatio)"
            zoomFactor = framing.zoomFactor
            let crop = framing.crop(inUpright: whole)
            bounds = Box(NormalizedRect(x: (crop.x - shownPart.x) / shownPart.width, y: (crop.y - shownPart.y) / shownPart.height,
                                        width: crop.width / shownPart.width, height: crop.height / shownPart.height))
        }
    }
    /// The smart-framing monitor's state.
    package struct FramingReport: Encodable, Sendable {
        /// The recommendation now; nil until the first frame was analysed.
        package var recommended: FramingBox?
        /// The detector the monitor uses.
        package var detector: String?
        /// Frames the monitor analysed since it started.
        package var analysedFrames: Int?
        /// Why the monitor cannot run, if it cannot.
        package var error: String?

        init(error: String?) { self.error = error }
    }
    /// The framing the camera applies now.
    package struct Applied: Encodable, Sendable {
        /// Nil: the sensor's own.
        package let aspectRatio: String?
        /// 1 = the whole picture of the ratio.
        package let zoomFactor: Double
    }

    /// The sequence number of the viewfinder's newest frame.
    package var viewfinderSequence: UInt64?
    /// The part of the whole upright picture the viewfinder shows (less than all of it while a
    /// framing is applied).
    package var fieldOfView: Box
    /// Whether auto-framing is on.
    package var autoFraming: Bool
    /// The framing applied now.
    package var applied: Applied
    /// With `faces=1`.
    package var faces: FacesReport?
    /// With `framing=1`.
    package var framing: FramingReport?
}
