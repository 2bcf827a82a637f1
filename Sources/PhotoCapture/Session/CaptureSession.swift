import Imaging
import Synchronization

/// Connects a camera to photo outputs and keeps it streaming, modelled on `AVCaptureSession`.
///
/// While running, the camera streams continuously, so a capture takes the next frame instead of
/// waiting for the device to start.
public final class CaptureSession: Sendable {
    private struct State {
        var input: CaptureDevice?
        var isRunning = false
        var framesToDiscard = 0
    }
    private let state = Mutex(State())

    /// A session with no input and no output.
    public init() {}

    /// The camera, once added.
    public var input: CaptureDevice? { state.withLock { $0.input } }

    /// Whether the camera is streaming.
    public var isRunning: Bool { state.withLock { $0.isRunning } }

    /// Sets the camera; a session has one.
    public func addInput(_ device: CaptureDevice) throws(PhotoCaptureError) {
        try state.withLock { (state) throws(PhotoCaptureError) in
            guard state.input == nil else { throw PhotoCaptureError(.inputAlreadySet) }
            state.input = device
        }
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

    /// Streams `format` at `size`, cropped by the driver to `hardwareCrop` when given
    /// (restarting the stream only when they change), and returns the frame for a request made
    /// at `instant`: with `zeroShutterLag`, the frame whose exposure was under way then, unless
    /// the stream had to change for the request; otherwise the first frame whose exposure
    /// started after `instant` (after the change).
    func frame(format: FramePixelFormat, size: PixelSize, hardwareCrop: PixelRect? = nil, startedAfter instant: UInt64,
               zeroShutterLag: Bool = false, reservation: LiveFrameSource.Reservation? = nil,
               timeout: Duration) async throws(PhotoCaptureError) -> DeliveredFrame {
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
