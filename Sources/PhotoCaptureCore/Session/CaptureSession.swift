import Imaging
import Logging
import Synchronization

extension Logger {
    /// A logger that drops everything: the default until the app gives its own.
    static let disabled = Logger(label: "photocap", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// Connects a camera to photo outputs and keeps it streaming, modelled on `AVCaptureSession`.
///
/// While running, the camera streams continuously, so a capture takes the next frame instead of
/// waiting for the device to start.
public final class CaptureSession: Sendable {
    private struct State {
        var input: CaptureDevice?
        var isRunning = false
        var framesToDiscard = 0
        var logger = Logger.disabled
        /// Each photo output's ``PhotoOutput/maxPhotoQualityPrioritization``.
        var mergeDemands: [ObjectIdentifier: PhotoQualityPrioritization] = [:]

        /// What the camera's stream keeps for the most demanding output.
        var framesKept: FrameHistory.Policy { FrameHistory.Policy(serving: mergeDemands.values.max() ?? .speed) }
    }
    private let state = Mutex(State())

    /// A session with no input and no output.
    public init() {}

    /// The camera, once added.
    public var input: CaptureDevice? { state.withLock { $0.input } }

    /// Whether the camera is streaming.
    public var isRunning: Bool { state.withLock { $0.isRunning } }

    /// The app's logger: the session logs what someone debugging a camera needs — stream
    /// starts and restarts with the format, size and crop asked for, the first frame's format
    /// as delivered, dropped frames (gaps in the driver's sequence numbers), stream failures —
    /// and the camera logs control changes (``CaptureDevice/setControls(_:)``, bracket
    /// exposures). Silent until set.
    public var logger: Logger {
        get { state.withLock { $0.logger } }
        set {
            let input = state.withLock { (state) -> CaptureDevice? in
                state.logger = newValue
                return state.input
            }
            input?.source.logger = newValue
        }
    }

    /// Sets the camera; a session has one.
    public func addInput(_ device: CaptureDevice) throws(PhotoCaptureError) {
        let logger = try state.withLock { (state) throws(PhotoCaptureError) -> Logger in
            guard state.input == nil else { throw PhotoCaptureError(.inputAlreadySet) }
            state.input = device
            return state.logger
        }
        device.source.logger = logger
        device.source.keepFrames(for: state.withLock { $0.framesKept })
    }

    /// Notes how much `output` may merge, so the stream keeps the frames it needs.
    func setMaxQualityPrioritization(_ maximum: PhotoQualityPrioritization, of output: PhotoOutput) {
        let (input, policy) = state.withLock { state in
            state.mergeDemands[ObjectIdentifier(output)] = maximum
            return (state.input, state.framesKept)
        }
        input?.source.keepFrames(for: policy)
    }

    /// Attaches a photo output.
    public func addOutput(_ output: PhotoOutput) throws(PhotoCaptureError) {
        try output.attach(to: self)
    }

    /// Attaches a video data output: from now on it receives the camera's frames while the
    /// session runs. The input must be added first.
    public func addOutput(_ output: VideoDataOutput) throws(PhotoCaptureError) {
        guard let device = input else { throw PhotoCaptureError(.notConnected) }
        try output.attach(to: device)
    }

    /// Detaches a video data output; its frame streams finish.
    public func removeOutput(_ output: VideoDataOutput) {
        output.detach()
    }

    /// Starts streaming at the camera's default still format (the largest size it offers).
    ///
    /// - Parameter discardingFirst: frames to skip after every stream start so auto exposure
    ///   and white balance settle on a cold camera (`photocap shoot --skip N`).
    public func startRunning(discardingFirst: Int = 0) async throws(PhotoCaptureError) {
        guard let device = input else { throw PhotoCaptureError(.notConnected) }
        guard let format = device.defaultStillFormat else { throw PhotoCaptureError(.noCapturableFormat) }
        state.withLock { $0.framesToDiscard = max(0, discardingFirst) }
        try await device.source.startStreaming(format: format.pixelFormat, size: format.sizes.largest,
                                               discardingFirst: max(0, discardingFirst))
        state.withLock { $0.isRunning = true }
    }

    /// Stops streaming; pending captures end with ``PhotoCaptureError/Code/sessionNotRunning``.
    /// Returns once the outputs' delegates have returned from the frame they were handed (each
    /// waited for at most 10 seconds), so nothing of the session's runs after it.
    public func stopRunning() async {
        guard let device = input else { return }
        state.withLock { $0.isRunning = false }
        await device.source.stopStreaming()
    }

    /// Claims, at the moment of a request made at `instant`, the frame it will get when the
    /// stream already runs as it needs (so no change comes first): the frame under way then with
    /// `zeroShutterLag`, else the first one after. Nil when the stream must change first.
    func reserveFrame(format: FramePixelFormat, size: PixelSize, hardwareCrop: PixelRect?, at instant: UInt64,
                      zeroShutterLag: Bool) -> LiveFrameSource.Reservation? {
        guard isRunning, let device = input,
              device.source.isStreaming(format: format, size: size, crop: hardwareCrop) else { return nil }
        return device.source.reserve(zeroShutterLag ? .underWayAt(instant) : .startedAfter(instant))
    }

    /// The neighbours a photo of `reference` is merged with, as `merging` plans them: frames
    /// in hand from before (and after) it, and for `.quality` frames still to come, waited for
    /// at most `timeout`.
    func neighbours(of reference: Frame, merging: FrameMerging, timeout: Duration) async -> [Frame] {
        guard merging.framesPlanned > 1, let device = input else { return [] }
        let (before, total) = merging.prioritization.neighbours
        return await device.source.history.neighbours(of: reference, before: before, total: min(total, merging.framesPlanned - 1),
                                                      waiting: merging.prioritization == .quality ? timeout : nil)
    }

    /// The stream's own copy of `frame`, when it keeps one: the photo can use it and let the
    /// camera have its buffer back.
    func keptCopy(of frame: Frame) -> Frame? { input?.source.history.keptCopy(of: frame) }

    /// Streams `format` at `size`, cropped by the driver to `hardwareCrop` when given
    /// (restarting the stream only when they change), and returns the frame for a request made
    /// at `instant`: with `zeroShutterLag`, the frame whose exposure was under way then, unless
    /// the stream had to change for the request; otherwise the first frame whose exposure
    /// started after `instant` (after the change).
    func frame(format: FramePixelFormat, size: PixelSize, hardwareCrop: PixelRect? = nil, startedAfter instant: UInt64,
               zeroShutterLag: Bool = false, reservation: LiveFrameSource.Reservation? = nil,
               timeout: Duration?) async throws(PhotoCaptureError) -> DeliveredFrame {
        guard isRunning, let device = input else {
            if let reservation { input?.source.cancel(reservation) }
            throw PhotoCaptureError(.sessionNotRunning)
        }
        var delivered: DeliveredFrame
        if let reservation {
            delivered = try await device.source.frame(for: reservation, timeout: timeout)
        } else {
            let restarted = try await device.startStreaming(format: format, size: size, hardwareCrop: hardwareCrop,
                                                            discardingFirst: state.withLock { $0.framesToDiscard })
            let rule: LiveFrameSource.Rule = zeroShutterLag && !restarted ? .underWayAt(instant) : .startedAfter(instant)
            delivered = try await device.source.frame(rule, timeout: timeout)
            if restarted { delivered.delivery.frameSelection = .firstFrameAfterChange }
        }
        guard delivered.frame.format == format, delivered.frame.size == size else {
            throw PhotoCaptureError(.streamFormatChanged(expected: "\(format) \(size)",
                                                         delivered: "\(delivered.frame.format) \(delivered.frame.size)"))
        }
        return delivered
    }
}
