import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PhotocapCommands
import PhotoCaptureVision

extension WatchCommand {
    /// What `--faces` and `--smart-framing` attach to the running session; each runs on its own
    /// analysis queue that drops frames while busy, so neither delays the stream or the preview.
    struct Analysis {
        /// The tracked faces (`--faces`).
        let faces: MetadataOutput?
        /// The smart framing monitor (`--smart-framing`).
        let monitor: SmartFramingMonitor?
        /// Prints each new recommendation (`--smart-framing`) and each applied framing
        /// (`--auto-framing`) as it comes; ends when the monitor stops.
        let printer: Task<Void, Never>?

        /// The faces reported now, or nil without `--faces`.
        var latestFaces: [MetadataFaceObject]? { faces?.latestFaces }
        /// The face detector's name, or nil with neither `--faces` nor `--smart-framing`.
        var faceDetectorName: String? { faces?.faceDetectorName ?? monitor?.faceDetectorName }
    }

    /// Attaches the face output and starts the monitor the options ask for, on a running session.
    /// `firstFrame` gives the first frame's timestamp, the origin of applied framings' times.
    func startAnalysis(session: CaptureSession, camera: CaptureDevice, started: Date,
                       firstFrame: @escaping @Sendable () -> UInt64?) throws -> Analysis {
        var output: MetadataOutput?
        if faces {
            do {
                let attached = try MetadataOutput()
                try session.addOutput(attached)
                output = attached
            } catch {
                throw fail("--faces: \(error)")
            }
        }
        guard smartFraming || autoFraming else { return Analysis(faces: output, monitor: nil, printer: nil) }
        let monitor = camera.smartFramingMonitor
        // Subscribed before the start, so the first recommendation (made before anyone is seen) is printed too.
        let recommendations = smartFraming ? monitor.recommendations() : nil
        let applied = autoFraming ? monitor.appliedFramings() : nil
        do {
            try monitor.setEnabledFramings(monitor.supportedFramings)
            try monitor.startMonitoring()
            if autoFraming { try monitor.setAutoFramingEnabled(true) }
        } catch {
            monitor.stopMonitoring()
            if let output { session.removeOutput(output) }
            throw fail("\(autoFraming ? "--auto-framing" : "--smart-framing"): \(error)")
        }
        let json = json
        let printer = Task {
            async let framings: Void = Self.printApplied(applied, json: json, firstFrame: firstFrame)
            await Self.printRecommendations(recommendations, json: json, started: started)
            await framings
        }
        return Analysis(faces: output, monitor: monitor, printer: printer)
    }

    /// One line per applied framing, until auto-framing stops.
    private static func printApplied(_ applied: AsyncStream<AppliedFraming>?, json: Bool,
                                     firstFrame: @escaping @Sendable () -> UInt64?) async {
        guard let applied else { return }
        for await framing in applied {
            let report = AppliedFramingReport(framing, firstFrameTimestamp: firstFrame() ?? framing.frame.timestamp)
            print(json ? ((try? jsonText(report)) ?? "{}") : report.sentence)
            fflush(nil)
        }
    }

    /// One line per new recommendation (the stream yields changes only), until the monitor stops.
    private static func printRecommendations(_ recommendations: AsyncStream<Framing>?, json: Bool, started: Date) async {
        guard let recommendations else { return }
        for await framing in recommendations {
            let elapsed = Date().timeIntervalSince(started)
            if json {
                print((try? jsonText(RecommendationReport(framing, elapsed: elapsed))) ?? "{}")
            } else {
                print("framing: \(framing) recommended after \(String(printf: "%.1f", elapsed)) s")
            }
            fflush(nil)
        }
    }

    /// Stops the monitor (its stream ends, so the printer finishes) and detaches the face output.
    func stopAnalysis(_ analysis: Analysis, session: CaptureSession) async {
        analysis.monitor?.stopMonitoring()
        await analysis.printer?.value
        if let faces = analysis.faces { session.removeOutput(faces) }
    }

    /// `, 2 faces: #1 0.42,0.39 0.09x0.15, #2 …` for the one-line report.
    static func facesNote(_ faces: [MetadataFaceObject]) -> String {
        guard !faces.isEmpty else { return ", no faces" }
        let list = faces.map { face in
            let b = face.bounds
            return "#\(face.detectedObjectID) " + String(printf: "%.2f,%.2f %.2fx%.2f", b.x, b.y, b.width, b.height)
        }
        return ", \(faces.count) face\(faces.count == 1 ? "" : "s"): " + list.joined(separator: ", ")
    }

    /// `preview` with the overlay drawn on it, as a JPEG: the faces and the recommended framing
    /// now. `photoSize` is the photo's (the whole upright picture the preview shrinks).
    func overlaid(_ preview: PixelBuffer, photoSize: PixelSize, analysis: Analysis) throws -> Data {
        let overlay = PreviewOverlay(faces: analysis.latestFaces ?? [], framing: analysis.monitor?.recommendedFraming,
                                     uprightSize: photoSize)
        let drawn = overlay.drawn(on: try preview.rgbImage())
        return try PixelBuffer(rgb: drawn).jpegData(quality: 80)
    }
}
