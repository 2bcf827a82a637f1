import FoundationEssentials
import PhotocapCommands
import PhotoCaptureVision

extension ShootCommand {
    /// Starts the monitor with every supported framing, waits (at most `--framing-timeout`) for a
    /// change of recommendation made with people in view, applies the current recommendation (the ratio
    /// first, then the zoom) and stops the monitor.
    func applySmartFraming(session: CaptureSession, camera: CaptureDevice) async throws(PhotoCaptureError) -> SmartFramingReport {
        let monitor = camera.smartFramingMonitor
        let faces = try addFacesOutput(to: session) { () throws(SmartFramingError) in
            try monitor.setEnabledFramings(monitor.supportedFramings)
            try monitor.startMonitoring()
        }
        let started = Date()
        let recommendations = monitor.recommendations()
        let deadline = Task {
            try? await Task.sleep(for: .seconds(framingTimeout))
            monitor.stopMonitoring()
        }
        // The first recommendation comes before anyone is confirmed (the widest): wait for a change
        // made with people in view, or the timeout (when the widest suits them, it stays).
        var framing = monitor.recommendedFraming
        var received = framing == nil ? 0 : 1
        for await recommended in recommendations {
            framing = recommended
            received += 1
            if received > 1, !faces.latestFaces.isEmpty { break }
        }
        framing = monitor.recommendedFraming ?? framing
        let seen = faces.latestFaces
        let counts = (monitor.analysedFrameCount, monitor.droppedFrameCount)
        deadline.cancel()
        monitor.stopMonitoring()
        session.removeOutput(faces)
        if let framing {
            try await camera.setFraming(aspectRatio: framing.aspectRatio, videoZoomFactor: framing.zoomFactor)
        }
        if !json {
            note("smart framing: \(framing.map { "\($0)" } ?? "no recommendation") after \(String(printf: "%.1f", Date().timeIntervalSince(started))) s, \(seen.count) face(s) in view")
        }
        return SmartFramingReport(
            framing: framing.map { "\($0)" }, aspectRatio: framing.map { "\($0.aspectRatio)" }, zoomFactor: framing?.zoomFactor,
            waited: Date().timeIntervalSince(started),
            faces: seen.map(FaceReport.init),
            analysedFrames: counts.0, droppedFrames: counts.1)
    }
}
