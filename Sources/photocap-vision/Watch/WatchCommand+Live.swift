import ArgumentParser
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PhotoCapture
import PhotocapCommands
import PhotoCaptureVision
import Synchronization

extension WatchCommand {
    /// One second of the session.
    struct Report: Encodable {
        let second: Int
        let framesPerSecond: Double
        let framesStreamed: Int
        let dropped: [String: Int]
        let sceneStatus: String
        let isFlashScene: Bool
        let meanLuma: Double?
        let preview: String?
        /// With `--faces`: the faces of the latest analysed frame.
        let faces: [FaceReport]?
        /// With `--faces` or `--smart-framing`: the detector finding the faces, `YuNet` unless
        /// it could not load (then `Haar alt2`).
        let faceDetector: String?
    }

    /// The live session, reported on once a second until `--duration` or Ctrl-C.
    func watch() async throws {
        let (camera, session, photos, video, whole) = try openSession()
        let monitor = camera.sceneMonitor
        // The video data output keeps the newest frame and drops the rest: this watcher only counts.
        let frames = video.frames()
        let failure = StreamFailure()
        video.setSampleBufferDelegate(failure)
        // The frames finish when the stream ends: at a clip's last frame, so does the watch.
        let streamEnded = Flag()
        let firstFrame = Mutex<UInt64?>(nil)
        let drain = Task {
            for await frame in frames { firstFrame.withLock { $0 = $0 ?? frame.timestamp } }
            streamEnded.set()
        }
        try await session.startRunning()
        let analysis: Analysis
        do {
            analysis = try startAnalysis(session: session, camera: camera, started: Date()) { firstFrame.withLock { $0 } }
        } catch {
            await session.stopRunning()
            drain.cancel()
            throw error
        }

        let interrupted = Interrupt()
        defer { interrupted.restore() }
        var last = await camera.streamStatistics()
        var lastTime = Date()
        var second = 0
        // A clip whose stream failed (a frame cut short) rather than ended.
        var failed: PhotoCaptureError?
        while duration.map({ second < $0 }) ?? true {
            guard await interrupted.wait(seconds: 1) == false else { break }
            if streamEnded.isSet, frameFile.isClip {
                failed = failure.error
                if failed == nil { note("the clip ended at its last frame") }
                break
            }
            second += 1
            let statistics = await camera.streamStatistics()
            let now = Date()
            let rate = Double(statistics.framesStreamed - last.framesStreamed) / now.timeIntervalSince(lastTime)
            (last, lastTime) = (statistics, now)
            let preview = try await currentPreview(whole: whole, photos: photos, camera: camera, analysis: analysis)
            try printReport(Report(
                second: second, framesPerSecond: (rate * 10).rounded() / 10, framesStreamed: statistics.framesStreamed,
                dropped: ["video": video.droppedFrameCount, "allConsumers": statistics.consumerDrops],
                sceneStatus: monitor.lighting.rawValue, isFlashScene: monitor.isFlashScene,
                meanLuma: monitor.latestReading.map { ($0.meanLuma * 10).rounded() / 10 }, preview: preview,
                faces: analysis.latestFaces.map { $0.map(FaceReport.init) }, faceDetector: analysis.faceDetectorName),
                        latestFaces: analysis.latestFaces)
        }
        await stopAnalysis(analysis, session: session)
        await session.stopRunning()
        drain.cancel()
        if interrupted.happened { throw ExitCode(130) }
        if let failed { throw failed }
    }

    /// The camera watched in a session with the outputs the watch reads: photos (for previews),
    /// video frames (counted), and with auto-framing under an overlay the whole picture, since
    /// then the photos' preview is the framed picture and the overlay draws the crop on the whole.
    private func openSession() throws
        -> (camera: CaptureDevice, session: CaptureSession, photos: PhotoOutput, video: VideoDataOutput, whole: WholePicture?) {
        let camera = try openCamera()
        let session = CaptureSession()
        let photos = PhotoOutput()
        let video = VideoDataOutput()
        try session.addInput(camera)
        try session.addOutput(photos)
        try session.addOutput(video)
        let whole = overlay && autoFraming && previewFile != nil ? WholePicture(size: previewSize) : nil
        if let whole { try session.addOutput(whole.output) }
        return (camera, session, photos, video, whole)
    }

    /// This second's `--preview-file`: the whole picture with the overlay when there is one (nil
    /// until its first frame), else a photo taken now; nil without `--preview-file`.
    private func currentPreview(whole: WholePicture?, photos: PhotoOutput, camera: CaptureDevice,
                                analysis: Analysis) async throws -> String? {
        guard let previewFile else { return nil }
        guard let whole else {
            return try await refreshPreview(previewFile, from: photos, camera: camera, analysis: overlay ? analysis : nil)
        }
        guard let picture = whole.latest() else { return nil }
        return try writePreview(previewFile, picture: picture, camera: camera, analysis: analysis)
    }

    /// The camera watched: `--frame-file` (replayed at a sensor's pace, so the report reads like
    /// a camera's), `--device`, or the first camera found (the synthetic one only when there is none).
    private func openCamera() throws -> CaptureDevice {
        if let replay = try frameFile.camera(mounting: .upright, framesPerSecond: 30) { return replay }
        switch device {
        case "synthetic": return CaptureDevice.synthetic()
        case let path?: return try namedCamera(path)
        case nil: return try defaultCamera { CaptureDevice.synthetic() }
        }
    }

    /// One second's line: JSON, or words, flushed so a pipe gets it at once.
    private func printReport(_ report: Report, latestFaces: [MetadataFaceObject]?) throws {
        if json {
            print(try jsonText(report))
        } else {
            let dropped = report.dropped
            print("\(report.second)s: \(report.framesPerSecond) fps, \(report.framesStreamed) frames, dropped video \(dropped["video"] ?? 0) "
                  + "(all consumers \(dropped["allConsumers"] ?? 0)), scene \(report.sceneStatus)"
                  + (report.meanLuma.map { ", luma \($0)" } ?? "") + (latestFaces.map(Self.facesNote) ?? ""))
        }
        fflush(nil)
    }

    /// Writes `picture` (the whole upright picture) over `path` atomically, with the faces and
    /// the crop `camera` applies now drawn on it.
    private func writePreview(_ path: String, picture: RGBImage, camera: CaptureDevice, analysis: Analysis) throws -> String {
        let crop = NormalizedRect(camera.appliedCrop(inUpright: picture.size), in: picture.size)
        let drawn = PreviewOverlay(faces: analysis.latestFaces ?? [], onWholePictureCroppedTo: crop).drawn(on: picture)
        try AtomicFileWriter.write(try PixelBuffer(rgb: drawn).jpegData(quality: 80), to: path, overwrite: true)
        return path
    }

    /// Takes the frame under way now (zero shutter lag: no stream change) and writes its upright
    /// preview over `path` atomically, with `analysis`'s overlay drawn on it when given.
    private func refreshPreview(_ path: String, from output: PhotoOutput, camera: CaptureDevice,
                                analysis: Analysis?) async throws -> String {
        var settings = PhotoSettings(format: .uncompressed)
        // A preview is never larger than its photo, which auto-framing may crop small.
        var box = previewSize
        if let whole = camera.streamingUprightSize {
            let photo = camera.appliedCrop(inUpright: whole).size
            box = PixelSize(width: min(box.width, photo.width), height: min(box.height, photo.height))
        }
        settings.previewDimensions = box
        settings.orientationCompensation = .mode(.upright)
        let photo = try await output.capturePhoto(with: settings)
        guard let preview = photo.previewPixelBuffer else { throw fail("the camera delivered no preview") }
        let jpeg = try analysis.map { try overlaid(preview, photoSize: photo.resolvedSettings.photoDimensions, analysis: $0) }
            ?? preview.jpegData(quality: 80)
        try AtomicFileWriter.write(jpeg, to: path, overwrite: true)
        return path
    }
}

/// The error the stream failed with, other than a clip's end: the video output tells its
/// delegate (before its frames finish), not the readers of its frames.
private final class StreamFailure: VideoDataOutputDelegate {
    private let first = Mutex<PhotoCaptureError?>(nil)
    var error: PhotoCaptureError? { first.withLock { $0 } }

    func videoDataOutput(_ output: VideoDataOutput, didOutput frame: VideoFrame) {}

    func videoDataOutput(_ output: VideoDataOutput, didFailWith error: PhotoCaptureError) {
        if case .clipEnded = error.code { return }
        first.withLock { $0 = $0 ?? error }
    }
}

/// A flag set once, from any thread.
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// SIGINT (Ctrl-C) turned into a flag the loop polls, so the camera is stopped before exiting.
private final class Interrupt {
    private let source: DispatchSourceSignal
    private let flag = Flag()

    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let flag = flag
        source.setEventHandler { flag.set() }
        source.resume()
    }

    var happened: Bool { flag.isSet }

    /// Sleeps up to `seconds`, returning early (true) on Ctrl-C.
    func wait(seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if happened { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return happened
    }

    func restore() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

extension CaptureDevice {
    /// The crop the camera's aspect ratio and zoom make of an upright picture of `size`.
    fileprivate func appliedCrop(inUpright size: PixelSize) -> PixelRect {
        let ratio = dynamicAspectRatio.map { ($0.width, $0.height) } ?? (size.width, size.height)
        return PixelRect.centred(ratio: ratio, zoom: videoZoomFactor, in: size)
    }
}
