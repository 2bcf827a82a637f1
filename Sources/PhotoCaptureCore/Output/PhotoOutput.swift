import Imaging
import Synchronization

/// Captures still photos from a session's camera, modelled on `AVCapturePhotoOutput`.
///
/// Each request is a ``PhotoSettings`` value, resolved against the camera before any frame is
/// taken (invalid requests throw at once, with the reason), then captured from the running
/// stream, processed in one conversion pass, encoded once and delivered to a delegate or an
/// async sequence.
public final class PhotoOutput: Sendable {
    /// A weak link back to the session, so session and output do not keep each other alive.
    private struct SessionLink { weak var session: CaptureSession? }
    private struct State {
        var link = SessionLink()
        var usedIDs: Set<Int64> = []
        var compensation: OrientationCompensation = .sensor
        var prepared: [PhotoSettings] = []
        var frameTimeout: Duration?
        var isZeroShutterLagEnabled = true
        var maxQualityPrioritization = PhotoQualityPrioritization.balanced
    }
    private let state = Mutex(State())
    let encoders = EncoderPool()

    /// An output not yet attached to a session.
    public init() {}

    func attach(to session: CaptureSession) throws(PhotoCaptureError) {
        let maximum = try state.withLock { (state) throws(PhotoCaptureError) in
            guard state.link.session == nil else { throw PhotoCaptureError(.outputAlreadyAttached) }
            state.link.session = session
            return state.maxQualityPrioritization
        }
        session.setMaxQualityPrioritization(maximum, of: self)
    }

    private var session: CaptureSession? { state.withLock { $0.link.session } }

    // MARK: Capabilities

    /// File formats this output can produce (`uncompressed` is pixel-buffer only; `dng` only
    /// when the camera delivers a Bayer format).
    public var availablePhotoFormats: [PhotoFormat] {
        PhotoFormat.allCases.filter { $0.isProcessed || !availableRawPhotoPixelFormatTypes.isEmpty }
    }

    /// Codecs for compressed photos: JPEG and HEVC (in HEIC).
    public var availablePhotoCodecTypes: [PhotoCodecType] { PhotoCodecType.allCases }

    /// Camera pixel formats a request can capture in (``PhotoSettings/framePixelFormat``); empty
    /// until the output is attached to a session with an input. (Apple's
    /// `availablePhotoPixelFormatTypes` lists the formats of processed uncompressed photos, which
    /// here are always the pixel buffer's 4:2:0 planes.)
    public var availableFramePixelFormatTypes: [FramePixelFormat] {
        session?.input?.formats.map(\.pixelFormat) ?? []
    }

    /// Camera pixel formats a request can capture in.
    @available(*, deprecated, renamed: "availableFramePixelFormatTypes",
               message: "it lists the camera's formats, not Apple's processed photo formats")
    public var availablePhotoPixelFormatTypes: [FramePixelFormat] { availableFramePixelFormatTypes }

    /// The Bayer formats the camera can capture RAW (DNG) photos in, best first (largest frame,
    /// then most bits); empty for a camera without one, or until the output is attached to a
    /// session with an input.
    public var availableRawPhotoPixelFormatTypes: [FramePixelFormat] { session?.input?.rawPixelFormats ?? [] }

    /// The most photos one bracket may have on the attached camera (see
    /// ``CaptureDevice/maxBracketedCapturePhotoCount``); 1 without a camera or exposure controls.
    public var maxBracketedCapturePhotoCount: Int { session?.input?.maxBracketedCapturePhotoCount ?? 1 }

    /// Whether ``isCameraSensorOrientationCompensationEnabled`` can be changed: always.
    public var isCameraSensorOrientationCompensationSupported: Bool { true }

    // MARK: Orientation

    /// How processed photos treat the sensor's mounting; ``OrientationCompensation/sensor`` by
    /// default. RAW output is never compensated.
    public var orientationCompensation: OrientationCompensation {
        get { state.withLock { $0.compensation } }
        set { state.withLock { $0.compensation = newValue } }
    }

    /// Whether the pixels of JPEG, HEIC and uncompressed photos are turned to undo the sensor's
    /// mounting (true, the default) or left as delivered with the whole correction in the
    /// metadata (false, the fast path).
    public var isCameraSensorOrientationCompensationEnabled: Bool {
        get { orientationCompensation != .off }
        set { orientationCompensation = newValue ? .sensor : .off }
    }

    /// Whether the scene is dark enough that a flash would help, as the device's
    /// ``SceneMonitor`` judges it from the stream (`AVCapturePhotoOutput.isFlashScene`); false
    /// without a session input. Flash ``FlashMode/auto`` resolves against it.
    public var isFlashScene: Bool { session?.input?.sceneMonitor.isFlashScene ?? false }

    /// Whether the output can take the frame whose exposure was under way at the moment of the
    /// request: always, as the session's stream keeps its newest frames (like
    /// `AVCapturePhotoOutput.isZeroShutterLagSupported`).
    public var isZeroShutterLagSupported: Bool { true }

    /// Whether photos are taken with zero shutter lag (true by default): the photo is the frame
    /// whose exposure was under way when the request was made, not the first one that starts
    /// after it. Requests that change the stream (another format, size or hardware crop) and
    /// bracket members (another exposure) take the first frame after the change either way.
    /// Each photo's ``FrameDelivery/frameSelection`` says which rule picked its frame.
    public var isZeroShutterLagEnabled: Bool {
        get { state.withLock { $0.isZeroShutterLagEnabled } }
        set { state.withLock { $0.isZeroShutterLagEnabled = newValue } }
    }

    /// The highest ``PhotoSettings/photoQualityPrioritization`` a request may ask for (like
    /// `AVCapturePhotoOutput.maxPhotoQualityPrioritization`): ``PhotoQualityPrioritization/balanced``
    /// by default. It says what the camera's stream keeps for merging: nothing at `.speed`,
    /// recent frames while the scene is dark at `.balanced`, recent frames always at `.quality`
    /// (copies of them when they are a V4L2 camera's buffers, which the camera needs back). Set
    /// it before the session runs, so frames are in hand for the first request.
    public var maxPhotoQualityPrioritization: PhotoQualityPrioritization {
        get { state.withLock { $0.maxQualityPrioritization } }
        set {
            let session = state.withLock { (state) -> CaptureSession? in
                state.maxQualityPrioritization = newValue
                return state.link.session
            }
            session?.setMaxQualityPrioritization(newValue, of: self)
        }
    }

    /// How long a capture waits for a frame before failing with
    /// ``PhotoCaptureError/Code/frameTimeout(milliseconds:device:frame:)``, on any camera.
    ///
    /// Nil by default: a real camera's request then waits ten of its frame intervals, at least
    /// 5 seconds (a slow or long-exposing stream is not a stalled one), and a synthetic,
    /// frame-file or clip camera's request has no limit, since it makes its frames on demand
    /// and a loaded machine only makes them late; its wait still ends, with the frame or the
    /// stream's failure, and when the session stops.
    public var frameTimeout: Duration? {
        get { state.withLock { $0.frameTimeout } }
        set { state.withLock { $0.frameTimeout = newValue } }
    }

    // MARK: Requests

    /// What `settings` would resolve to on the attached camera, without capturing or using up the
    /// settings' uniqueID. Throws the same errors a capture would.
    public func resolvedSettings(for settings: PhotoSettings) throws(PhotoCaptureError) -> ResolvedPhotoSettings {
        guard let device = session?.input else { throw PhotoCaptureError(.notConnected, uniqueID: settings.uniqueID) }
        return try resolver(for: device).resolve(settings)
    }

    private func resolver(for device: CaptureDevice) -> SettingsResolver {
        let (compensation, maximum) = state.withLock { ($0.compensation, $0.maxQualityPrioritization) }
        return SettingsResolver(device: device, defaultCompensation: compensation, maxQualityPrioritization: maximum)
    }

    /// Prepares for captures like `settingsArray`: validates them, switches the stream to their
    /// format and size, creates encoder state ahead of time and has the memory of the photo's
    /// pixels made ready on another thread (where the photo will have whole planes: see
    /// ``PixelBuffer``), so the next such capture starts sooner. The
    /// uniqueIDs are not used up.
    public func setPreparedPhotoSettingsArray(_ settingsArray: [PhotoSettings]) async throws(PhotoCaptureError) {
        guard let session, let device = session.input else { throw PhotoCaptureError(.notConnected) }
        let resolver = resolver(for: device)
        var resolved: [ResolvedPhotoSettings] = []
        for settings in settingsArray { resolved.append(try resolver.resolve(settings)) }
        // `.balanced` merges as the scene monitor judges the light: prepared, it starts.
        if settingsArray.contains(where: { $0.photoQualityPrioritization == .balanced }) { _ = device.sceneMonitor }
        if let first = resolved.first, session.isRunning {
            try await device.startStreaming(format: first.framePixelFormat, size: first.frameDimensions,
                                            hardwareCrop: first.framing.hardwareCropRect, discardingFirst: 0)
        }
        for item in resolved {
            // The synthetic and frame-file cameras keep their pictures; a V4L2 or libcamera camera needs its
            // buffers back, and a compressed or packed frame is first made into a copy of its own.
            let format = item.framePixelFormat
            let freeToKeep = device.kind != .v4l2 && device.kind != .libcamera && !format.isCompressed && !format.isCSI2Packed
            try encoders.prepare(for: item, framesAreFreeToKeep: freeToKeep)
        }
        state.withLock { $0.prepared = settingsArray }
    }

    /// The settings last given to ``setPreparedPhotoSettingsArray(_:)``.
    public var preparedPhotoSettingsArray: [PhotoSettings] { state.withLock { $0.prepared } }

    /// Captures a photo as `settings` asks and reports progress to `delegate`.
    ///
    /// Throws — before anything is captured and without calling the delegate — when the settings
    /// were already used, cannot be met, or the session is not running. Otherwise the delegate
    /// receives its calls in order and exactly one `didFinishCapture`.
    public func capturePhoto(with settings: PhotoSettings, delegate: any PhotoCaptureDelegate) throws(PhotoCaptureError) {
        let (session, resolved) = try accept(settings)
        let requested = MonotonicClock.now()
        let timeout = frameTimeout
        // The frame is claimed now, however late the capture task runs.
        // A bracket or a focus change takes a frame exposed after its change, not one reserved now.
        let reservation = resolved.bracketedSettings.isEmpty && resolved.focus == nil
            ? session.reserveFrame(format: resolved.framePixelFormat, size: resolved.frameDimensions,
                                   hardwareCrop: resolved.framing.hardwareCropRect, at: requested,
                                   zeroShutterLag: isZeroShutterLagEnabled)
            : nil
        Task.detached {
            await self.run(resolved, session: session, requestedAt: requested, reservation: reservation, timeout: timeout,
                           delegate: delegate)
        }
    }

    /// Captures as `settings` asks and yields each photo; the sequence ends after the last photo
    /// or throws the capture's ``PhotoCaptureError``. Invalid settings throw at once.
    public func capturePhotos(with settings: PhotoSettings) throws(PhotoCaptureError) -> PhotoCaptureStream {
        let (results, continuation) = AsyncStream<Result<CapturePhoto, PhotoCaptureError>>.makeStream()
        try capturePhoto(with: settings, delegate: StreamDelegate(yield: { continuation.yield(.success($0)) }, finish: { error in
            if let error { continuation.yield(.failure(error)) }
            continuation.finish()
        }))
        return PhotoCaptureStream(results: results)
    }

    /// Captures one photo as `settings` asks.
    public func capturePhoto(with settings: PhotoSettings) async throws(PhotoCaptureError) -> CapturePhoto {
        for try await photo in try capturePhotos(with: settings) { return photo }
        throw PhotoCaptureError(.captureEndedWithoutPhoto, uniqueID: settings.uniqueID)
    }

    /// Checks the session and the uniqueID, resolves, and marks the ID used — atomically, so two
    /// submissions of one ID cannot both pass.
    private func accept(_ settings: PhotoSettings) throws(PhotoCaptureError) -> (CaptureSession, ResolvedPhotoSettings) {
        let id = settings.uniqueID
        return try state.withLock { (state) throws(PhotoCaptureError) in
            guard !state.usedIDs.contains(id) else { throw PhotoCaptureError(.settingsReused, uniqueID: id) }
            guard let session = state.link.session, let device = session.input else {
                throw PhotoCaptureError(.notConnected, uniqueID: id)
            }
            guard session.isRunning else { throw PhotoCaptureError(.sessionNotRunning, uniqueID: id) }
            let resolved = try SettingsResolver(device: device, defaultCompensation: state.compensation,
                                                maxQualityPrioritization: state.maxQualityPrioritization).resolve(settings)
            state.usedIDs.insert(id)
            return (session, resolved)
        }
    }

    /// How long a `.quality` photo waits for the frames after its own.
    static let neighbourWait = Duration.seconds(1)

    private func run(_ resolved: ResolvedPhotoSettings, session: CaptureSession, requestedAt instant: UInt64,
                     reservation: LiveFrameSource.Reservation?, timeout: Duration?, delegate: any PhotoCaptureDelegate) async {
        guard resolved.bracketedSettings.isEmpty else {
            return await runBracket(resolved, session: session, requestedAt: instant, timeout: timeout, delegate: delegate)
        }
        guard resolved.focus == nil else {
            return await runFocused(resolved, session: session, requestedAt: instant, timeout: timeout, delegate: delegate)
        }
        await delegate.photoOutput(self, willBeginCaptureFor: resolved)
        let delivered: DeliveredFrame
        do {
            await delegate.photoOutput(self, willCapturePhotoFor: resolved)
            delivered = try await session.frame(format: resolved.framePixelFormat, size: resolved.frameDimensions,
                                                hardwareCrop: resolved.framing.hardwareCropRect, startedAfter: instant,
                                                zeroShutterLag: isZeroShutterLagEnabled, reservation: reservation,
                                                timeout: timeout)
        } catch {
            return await finish(resolved, delivered: 0, error: error.attributed(to: resolved.uniqueID), to: delegate)
        }
        await delegate.photoOutput(self, didCapturePhotoFor: resolved)
        // The stream's copy of the frame, when it keeps one, so the camera has its buffer back
        // while the merge waits for later frames.
        let reference = resolved.frameMerging.framesPlanned > 1 ? session.keptCopy(of: delivered.frame) ?? delivered.frame
            : delivered.frame
        let neighbours = await session.neighbours(of: reference, merging: resolved.frameMerging,
                                                  timeout: min(timeout ?? Self.neighbourWait, Self.neighbourWait))
        // Each photo goes to the delegate as soon as it is made (a RAW photo while the processed
        // one is developed from it).
        let (made, sink) = AsyncStream.makeStream(of: Result<CapturePhoto, PhotoCaptureError>.self)
        async let handedOver: Int = {
            var delivered = 0
            for await result in made {
                await self.deliver(result, number: delivered, of: resolved, to: delegate)
                delivered += 1
            }
            return delivered
        }()
        let failure = PhotoProcessor(encoders: encoders).results(
            from: reference, neighbours: neighbours, resolved: resolved, device: session.input,
            delivery: delivered.delivery) { sink.yield($0) }
        sink.finish()
        await finish(resolved, delivered: await handedOver, error: failure, to: delegate)
    }

    /// Hands photo number `index` (0-based, in delivery order) of the request `resolved` to
    /// `delegate`: the photo, or, when it could not be made, a photo without pixels that names
    /// its place, with the error.
    func deliver(_ result: Result<CapturePhoto, PhotoCaptureError>, number index: Int, of resolved: ResolvedPhotoSettings,
                 to delegate: any PhotoCaptureDelegate) async {
        switch result {
        case .success(let photo):
            await delegate.photoOutput(self, didFinishProcessingPhoto: photo, error: nil)
        case .failure(let error):
            await delegate.photoOutput(self, didFinishProcessingPhoto: CapturePhoto(failed: index, of: resolved), error: error)
        }
    }

    /// Ends the request after `delivered` photos. A failed request first delivers every photo it
    /// expected and did not deliver as failed, as AVFoundation does: a delegate ported from iOS
    /// often waits for its photos in the photo callback alone.
    func finish(_ resolved: ResolvedPhotoSettings, delivered: Int, error: PhotoCaptureError?,
                to delegate: any PhotoCaptureDelegate) async {
        if let error {
            for index in delivered..<max(delivered, resolved.expectedPhotoCount) {
                await deliver(.failure(error), number: index, of: resolved, to: delegate)
            }
        }
        // The sequences of capturePhotos(with:) end with the typed error itself.
        if let stream = delegate as? StreamDelegate { return stream.finish(error) }
        await delegate.photoOutput(self, didFinishCaptureFor: resolved, error: error)
    }
}

/// Feeds delegate calls into an async sequence: each photo to `yield`, the request's end to
/// `finish`.
private final class StreamDelegate: PhotoCaptureDelegate {
    let yield: @Sendable (CapturePhoto) -> Void
    let finish: @Sendable (PhotoCaptureError?) -> Void

    init(yield: @escaping @Sendable (CapturePhoto) -> Void, finish: @escaping @Sendable (PhotoCaptureError?) -> Void) {
        (self.yield, self.finish) = (yield, finish)
    }

    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: (any Error)?) {
        // A failed photo also fails the request, which ends the sequence with its error.
        if error == nil { yield(photo) }
    }

    /// Not called: the output ends a stream's request through `finish`, with its error typed.
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings,
                     error: (any Error)?) {}
}
