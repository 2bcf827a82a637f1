import Codecs
import FoundationEssentials
import Imaging
import Synchronization

/// Frames of the running session for a viewfinder or an analysis, modelled on
/// `AVCaptureVideoDataOutput`: each frame of the camera's stream, converted off the stream's
/// thread into the requested pixel format, cropped to the device's dynamic aspect ratio and
/// zoom (or whole, ``deliversWholeFieldOfView``), turned upright for ``videoRotationAngle`` (the sensor mounting undone and the device
/// rotation applied, as an upright photo is) and scaled to fit ``maximumDimensions``.
///
/// Delivered to a delegate (``setSampleBufferDelegate(_:)``) and as an `AsyncStream`
/// (``frames()``), one conversion per frame. The output never slows the camera or a photo: while
/// it is busy, later frames wait in a mailbox of one (``alwaysDiscardsLateVideoFrames``, the
/// default) or two, and the ones that do not fit are dropped and counted.
public final class VideoDataOutput: Sendable, FrameConsumer {
    /// Pixel layouts a video data output delivers.
    public enum PixelFormat: String, CaseIterable, Sendable {
        /// Three planes: Y, then Cb and Cr at half width and height (4:2:0).
        case i420
        /// Two planes: Y, then interleaved Cb/Cr pairs at half width and height (4:2:0).
        case nv12
        /// One plane of packed B, G, R, A bytes.
        case bgra
    }

    private struct State {
        var pixelFormat = PixelFormat.i420
        var maximumDimensions: PixelSize?
        var rotationAngle = 0
        var alwaysDiscardsLateVideoFrames = true
        var wholeFieldOfView = false
        /// The setting in effect since the output was attached.
        var attachedWhole = false
        var delegate: (any VideoDataOutputDelegate)?
        var streams: [UUID: AsyncStream<VideoFrame>.Continuation] = [:]
        // Weak: the device's stream holds this output (through its slot); a strong reference
        // back would keep the camera, and its descriptor, alive after the app lets go.
        weak var device: CaptureDevice?
        var slot: FrameConsumerSlot?
        var reportedDrops = 0
        var streamDrops = 0
        var conversionFailures = 0
    }
    private let state = Mutex(State())

    /// An output delivering I420 frames of the camera's size, upright for a device held at 0°.
    public init() {}

    /// The pixel layout of delivered frames; I420 by default.
    public var videoPixelFormat: PixelFormat {
        get { state.withLock { $0.pixelFormat } }
        set { state.withLock { $0.pixelFormat = newValue } }
    }

    /// The box frames are scaled to fit (aspect kept, even sides); nil delivers the cropped
    /// frame's own size.
    public var maximumDimensions: PixelSize? {
        get { state.withLock { $0.maximumDimensions } }
        set { state.withLock { $0.maximumDimensions = newValue } }
    }

    /// How the device is held: clockwise degrees (0, 90, 180, 270) that make the picture upright,
    /// as ``PhotoSettings/rotationAngle`` and `AVCaptureConnection.videoRotationAngle`.
    public var videoRotationAngle: Int { state.withLock { $0.rotationAngle } }

    /// Sets ``videoRotationAngle``; other than a multiple of 90 degrees is refused.
    public func setVideoRotationAngle(_ angle: Int) throws(PhotoCaptureError) {
        guard Orientation(clockwiseDegrees: angle) != nil else { throw PhotoCaptureError(.invalidRotationAngle(angle)) }
        state.withLock { $0.rotationAngle = Orientation.normalizedDegrees(angle) }
    }

    /// Whether a frame that arrives while the delegate is busy replaces the one waiting (true,
    /// the default), or up to two frames wait. Takes effect when the output is added to a session.
    public var alwaysDiscardsLateVideoFrames: Bool {
        get { state.withLock { $0.alwaysDiscardsLateVideoFrames } }
        set { state.withLock { $0.alwaysDiscardsLateVideoFrames = newValue } }
    }

    /// Whether frames show the whole upright picture whatever the device's dynamic aspect ratio
    /// and zoom — what an analysis of everyone in view needs (the smart framing monitor's). False
    /// by default: frames show what photos show. Takes effect when the output is added to a
    /// session.
    ///
    /// While such an output is attached, photos are cropped in the conversion pass, never by the
    /// driver, and a stream the driver crops is restarted once uncropped; until then its frames
    /// show the driver's crop, as each frame's ``VideoFrame/fieldOfView`` says.
    public var deliversWholeFieldOfView: Bool {
        get { state.withLock { $0.wholeFieldOfView } }
        set { state.withLock { $0.wholeFieldOfView = newValue } }
    }

    /// Sets the object that receives frames; nil stops the calls.
    public func setSampleBufferDelegate(_ delegate: (any VideoDataOutputDelegate)?) {
        state.withLock { $0.delegate = delegate }
    }

    /// The frames from now on, newest first when the reader is slower than the camera (a reader
    /// that falls behind misses frames, counted in ``droppedFrameCount``). The stream finishes
    /// when the camera's stream fails or the output is removed.
    public func frames() -> AsyncStream<VideoFrame> {
        let (stream, continuation) = AsyncStream<VideoFrame>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        state.withLock { $0.streams[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
        return stream
    }

    /// Frames delivered since the output was last added.
    public var deliveredFrameCount: Int { state.withLock { $0.slot?.delivered ?? 0 } }

    /// Frames dropped since the output was added: the ones that arrived while it was busy, and
    /// the ones an `AsyncStream` reader did not take in time.
    public var droppedFrameCount: Int { state.withLock { ($0.slot?.dropped ?? 0) + $0.streamDrops } }

    // MARK: The session's side

    /// Starts receiving `device`'s frames.
    package func attach(to device: CaptureDevice) throws(PhotoCaptureError) {
        let (slot, whole) = try state.withLock { (state) throws(PhotoCaptureError) -> (FrameConsumerSlot, Bool) in
            guard state.device == nil else { throw PhotoCaptureError(.outputAlreadyAttached) }
            let slot = FrameConsumerSlot(self, label: "video-data", capacity: state.alwaysDiscardsLateVideoFrames ? 1 : 2)
            state.device = device
            state.slot = slot
            state.attachedWhole = state.wholeFieldOfView
            return (slot, state.wholeFieldOfView)
        }
        if whole { device.wantWholeFrames() }
        device.source.attach(slot)
    }

    /// Stops receiving frames and finishes the streams; the counts stay readable.
    package func detach() {
        let (device, slot, streams, whole) = state.withLock { (state) in
            defer { (state.device, state.streams, state.attachedWhole) = (nil, [:], false) }
            return (state.device, state.slot, state.streams, state.attachedWhole)
        }
        if let device, let slot { device.source.detach(slot) }
        if let device, whole { device.releaseWholeFrames() }
        streams.values.forEach { $0.finish() }
    }

    func consume(_ frame: Frame) {
        let (settings, device, delegate, drops) = state.withLock { (state) in
            let dropped = state.slot?.dropped ?? 0
            defer { state.reportedDrops = dropped }
            return ((state.pixelFormat, state.maximumDimensions, state.rotationAngle, state.attachedWhole), state.device, state.delegate,
                    (new: dropped - state.reportedDrops, total: dropped))
        }
        guard let device else { return }
        if drops.new > 0 { delegate?.videoDataOutput(self, didDropFrames: drops.new, total: drops.total) }
        let converted: VideoFrame
        do {
            converted = try Self.convert(frame, on: device, format: settings.0, box: settings.1, rotationAngle: settings.2,
                                         wholeFieldOfView: settings.3)
        } catch {
            // A frame the converter cannot read (a corrupt MJPEG frame): skipped, like a late one.
            state.withLock { $0.conversionFailures += 1; $0.streamDrops += 1 }
            return
        }
        delegate?.videoDataOutput(self, didOutput: converted)
        let continuations = state.withLock { Array($0.streams.values) }
        for continuation in continuations {
            if case .dropped = continuation.yield(converted) { state.withLock { $0.streamDrops += 1 } }
        }
    }

    func streamFailed(_ error: PhotoCaptureError) {
        let (delegate, streams) = state.withLock { (state) in
            defer { state.streams = [:] }
            return (state.delegate, state.streams)
        }
        delegate?.videoDataOutput(self, didFailWith: error)
        streams.values.forEach { $0.finish() }
    }

    /// One pass through the converter (format, crop and turn together), then a scale if asked.
    static func convert(_ frame: Frame, on device: CaptureDevice, format: PixelFormat, box: PixelSize?,
                        rotationAngle: Int, wholeFieldOfView: Bool = false) throws -> VideoFrame {
        let pixels = try PhotoProcessor.uncompressed(frame)
        let whole = try FrameConverter.effectiveCrop(nil, frameSize: pixels.size)
        let framing = device.framing.current
        let driverCrop = device.source.currentCrop.flatMap(device.fieldOfView(ofDriverCrop:))
        // A stream the driver crops delivers the framed picture already.
        let crop = driverCrop != nil || wholeFieldOfView ? whole
            : SettingsResolver.centredCrop(aspectRatio: framing.aspectRatio, zoom: framing.zoomFactor, of: whole,
                                           frameSize: pixels.size, mounting: device.sensorMounting, rotationAngle: rotationAngle)
        let turn = OrientationPlan(mounting: device.sensorMounting, rotationAngle: rotationAngle, mode: .upright).pixelTransform
        let fieldOfView = turn.apply(toNormalized: driverCrop ?? NormalizedRect(crop, in: pixels.size))
        var image = try FrameConverter(threads: 1).convert(pixels, crop: crop, applying: turn)
        if let box {
            let fitted = image.size.aspectFit(within: box)
            let even = PixelSize(width: max(2, fitted.width & ~1), height: max(2, fitted.height & ~1))
            if even != image.size { image = try image.scaled(to: even) }
        }
        let size = image.size
        let planes: [VideoFrame.Plane]
        switch format {
        case .i420:
            planes = (0..<3).map { VideoFrame.Plane(size: image.size(ofPlane: $0), bytesPerRow: image.size(ofPlane: $0).width,
                                                    bytes: image.packedPlane($0)) }
        case .nv12:
            let (luma, chroma) = try image.nv12Planes()
            planes = [VideoFrame.Plane(size: size, bytesPerRow: size.width, bytes: luma),
                      VideoFrame.Plane(size: image.chromaSize, bytesPerRow: image.chromaSize.width * 2, bytes: chroma)]
        case .bgra:
            planes = [VideoFrame.Plane(size: size, bytesPerRow: size.width * 4, bytes: try image.bgraBytes())]
        }
        return VideoFrame(sequence: frame.sequence, timestamp: frame.timestampNanoseconds, pixelFormat: format,
                          size: size, planes: planes, orientation: turn, fieldOfView: fieldOfView)
    }
}
