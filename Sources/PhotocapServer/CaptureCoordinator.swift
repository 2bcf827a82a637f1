import FoundationEssentials
import PhotoCapture
import PhotocapCommands

/// The camera, its running session and the photos taken on it: one capture at a time, the
/// others waiting in order, at most ``maxQueued`` of them.
package actor CaptureCoordinator {
    /// What a photo request produced.
    package struct Outcome: Sendable {
        /// The request's uniqueID.
        package let uniqueID: Int64
        /// The photos written, in delivery order (several for RAW + processed or a bracket).
        package let photos: [PhotoRecord]
        /// From the request's arrival to the shutter moment (`willCapturePhoto`).
        package let shutter: Duration?
        /// From the request's arrival to `didFinishCapture`.
        package let total: Duration
        /// The request's failure, if a photo could not be made or written.
        package let failure: String?
    }

    private let serve: ServeCommand
    /// The camera the session runs.
    package nonisolated let camera: CaptureDevice
    private let session: CaptureSession
    private let output: PhotoOutput
    /// The viewfinder's frames.
    package nonisolated let viewfinder: Viewfinder
    /// The faces and the framing recommendation on the viewfinder's stream, and auto-framing.
    package nonisolated let analysis: ViewfinderAnalysis
    private let rotation: RotationCoordinator?
    /// The photos taken.
    package nonisolated let store: PhotoStore
    /// The delegate callbacks, as JSON lines.
    package nonisolated let events: Broadcast<String>
    /// Requests that may wait behind the one being taken.
    package nonisolated let maxQueued: Int
    /// Begins every file name: the server's start time, so a folder shared by several runs
    /// never gets two photos of one name (uniqueIDs restart with the process).
    private let namePrefix: String
    private var isBusy = false
    private var waiting: [CheckedContinuation<Bool, Never>] = []
    private var isStopping = false

    /// Opens the camera `serve` names and starts its session with a photo output and a
    /// viewfinder; photos go to `store`, callbacks to `events`. A refused camera option throws
    /// `shoot`'s sentence.
    package init(serve: ServeCommand, store: PhotoStore, events: Broadcast<String>) async throws {
        let shoot = try serve.shootCommand()
        self.serve = serve
        self.store = store
        self.events = events
        self.maxQueued = serve.maxQueued
        camera = try shoot.openServedCamera()
        session = CaptureSession()
        output = PhotoOutput()
        // Every prioritization a request may ask for: the stream keeps the frames a merge needs.
        output.maxPhotoQualityPrioritization = .quality
        output.frameTimeout = shoot.frameTimeoutDuration
        let video = VideoDataOutput()
        video.videoPixelFormat = .bgra
        video.maximumDimensions = serve.viewfinderSize
        try session.addInput(camera)
        try session.addOutput(output)
        try session.addOutput(video)
        viewfinder = Viewfinder(output: video)
        analysis = ViewfinderAnalysis(session: session, camera: camera, viewfinder: viewfinder)
        rotation = await shoot.servedRotationCoordinator(for: camera)
        namePrefix = "photo-\(Int(Date().timeIntervalSince1970))-"
        try await session.startRunning(discardingFirst: shoot.framesToSkip)
        viewfinder.start()
        analysis.start()
    }

    /// Takes a photo as `request` asks, after the ones before it: the settings are checked as
    /// `shoot` checks them (a refusal is a 400 with its sentence); a full queue or a stopping
    /// server is a 503.
    package func take(_ request: PhotoRequest, received: ContinuousClock.Instant = .now) async throws(ServerError) -> Outcome {
        let shoot: ShootCommand
        do {
            shoot = try serve.shootCommand(adding: request.arguments)
        } catch {
            throw ServerError(.badRequest, error.message)
        }
        var settings = shoot.servedSettings()
        guard !isStopping else { throw ServerError(.serviceUnavailable, "the server is stopping") }
        if isBusy {
            guard waiting.count < maxQueued else {
                throw ServerError(.serviceUnavailable, "\(waiting.count) photo requests are waiting already; try again after one is taken")
            }
            events.publish(CaptureEvent("queued", uniqueID: settings.uniqueID, elapsed: .now - received))
            let proceed = await withCheckedContinuation { waiting.append($0) }
            guard proceed else { throw ServerError(.serviceUnavailable, "the server is stopping") }
        } else {
            isBusy = true
        }
        defer { handOver() }

        if shoot.choosesRawFormat {
            // RAW + processed: the camera's best RAW format, as an app would pick it.
            guard let best = output.availableRawPhotoPixelFormatTypes.first else {
                throw ServerError(.badRequest, PhotoCaptureError(.rawUnavailable(device: camera.localizedName,
                                                                                 available: camera.formats.map(\.pixelFormat)),
                                                                 uniqueID: settings.uniqueID).description)
            }
            settings.rawPixelFormat = best
        }
        shoot.applyServedRotation(from: rotation, to: &settings)
        // The output's mode applies to the requests after it is set: one runs at a time.
        output.orientationCompensation = shoot.orientationCompensation
        let delegate = PhotoDelegate(store: store, events: events, received: received, namePrefix: namePrefix,
                                     device: camera.uniqueID)
        do {
            try output.capturePhoto(with: settings, delegate: delegate)
        } catch {
            throw ServerError(.badRequest, error.description)
        }
        await delegate.finished()
        return Outcome(uniqueID: settings.uniqueID, photos: await delegate.records, shutter: await delegate.shutter,
                       total: .now - received, failure: await delegate.failure)
    }

    /// The next waiting request goes on (the camera stays taken), or the camera is free.
    private func handOver() {
        if waiting.isEmpty {
            isBusy = false
        } else {
            waiting.removeFirst().resume(returning: true)
        }
    }

    /// Refuses the waiting requests, lets the photo being taken be written (at most `limit`),
    /// stops the viewfinder and the session: the camera is released.
    package func stop(waitingAtMost limit: Duration = .seconds(60)) async {
        isStopping = true
        for request in waiting { request.resume(returning: false) }
        waiting = []
        let deadline = ContinuousClock.now + limit
        while isBusy && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        analysis.stop()
        viewfinder.stop()
        await session.stopRunning()
    }

    /// The camera's state for the page: its name, how the sensor is mounted, the device's
    /// rotation, the scene monitor's lighting, the capture queue and the viewfinder's rate.
    package var status: [String: String] {
        [
            "device": camera.localizedName,
            "sensorRotation": "\(camera.sensorMounting.rotation)",
            "rotation": rotation.map { "\($0.videoRotationAngleForHorizonLevelCapture ?? 0)" } ?? serve.camera.rotationDescription,
            "rotationSource": rotation == nil ? "fixed" : "accelerometer",
            "lighting": camera.sceneMonitor.lighting.rawValue,
            "flashScene": "\(camera.sceneMonitor.isFlashScene)",
            "capturing": "\(isBusy)",
            "waiting": "\(waiting.count)",
            "viewfinderRate": "\(serve.viewfinderRate)",
        ]
    }
}
