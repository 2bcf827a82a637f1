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

    /// Streams `format` at `size`, cropped by the driver to `hardwareCrop` when given
    /// (restarting the stream only when they change), and returns the first frame whose
    /// exposure started after `instant`.
    func frame(format: FramePixelFormat, size: PixelSize, hardwareCrop: PixelRect? = nil, startedAfter instant: UInt64,
               timeout: Duration) async throws(PhotoCaptureError) -> DeliveredFrame {
        guard isRunning, let device = input else { throw PhotoCaptureError(.sessionNotRunning) }
        try await device.startStreaming(format: format, size: size, hardwareCrop: hardwareCrop,
                                        discardingFirst: state.withLock { $0.framesToDiscard })
        let delivered = try await device.source.frame(startedAfter: instant, timeout: timeout)
        guard delivered.frame.format == format, delivered.frame.size == size else {
            throw PhotoCaptureError(.streamFormatChanged(expected: "\(format) \(size)",
                                                         delivered: "\(delivered.frame.format) \(delivered.frame.size)"))
        }
        return delivered
    }
}
