import Imaging

/// Where a device's frames come from: a backend (V4L2, synthetic, frame file). Implementations
/// stream once started and hand out the first frame whose exposure began after a given instant;
/// ``LiveFrameSource`` pulls them continuously and fans them out.
///
/// What a backend can do beyond frames it says through optional capabilities, so nothing above
/// it needs to know which backend it is.
package protocol FrameSource: Sendable {
    /// Starts (or restarts, when the format changes) streaming; the first `discardingFirst`
    /// frames after a (re)start are not used, so auto exposure can settle.
    func startStreaming(format: FramePixelFormat, size: PixelSize, discardingFirst: Int) async throws(PhotoCaptureError)
    /// Stops streaming; idempotent.
    func stopStreaming() async
    /// The first frame whose exposure started after `instant` (monotonic nanoseconds), waiting
    /// at most `timeout`.
    func frame(startedAfter instant: UInt64, timeout: Duration) async throws(PhotoCaptureError) -> DeliveredFrame
    /// Whether it streams, and its starts and stops so far.
    func statistics() async -> StreamStatistics

    // Capabilities: nil where the backend has none.
    /// A driver that crops before delivery.
    var hardwareCropping: (any HardwareCroppingSource)? { get }
    /// Exposure-type controls in physical units, for brackets and the scene monitor.
    var exposureControls: (any ExposureControls)? { get }
    /// A lens's focus controls.
    var focusControls: (any FocusControls)? { get }
    /// The camera's own controls, which the device lists and sets.
    var cameraControls: (any CameraControls)? { get }
    /// The device node the frames come from (e.g. `/dev/video0`), named in logs and errors.
    var devicePath: String? { get }
    /// Whether frames are made when asked for (synthetic, frame file, clip) rather than by a
    /// sensor on its own: such a camera cannot stall, so a request's wait has no time limit.
    var makesFramesOnDemand: Bool { get }
}

extension FrameSource {
    package var hardwareCropping: (any HardwareCroppingSource)? { nil }
    package var exposureControls: (any ExposureControls)? { nil }
    package var focusControls: (any FocusControls)? { nil }
    package var cameraControls: (any CameraControls)? { nil }
    package var devicePath: String? { nil }
    package var makesFramesOnDemand: Bool { false }
}

/// A frame and how the source found it.
package struct DeliveredFrame: Sendable {
    package let frame: Frame
    package var delivery: FrameDelivery

    /// `frame`, found as `delivery` says.
    package init(frame: Frame, delivery: FrameDelivery) {
        (self.frame, self.delivery) = (frame, delivery)
    }
}

/// How the frame of a photo was chosen: the evidence for shutter lag and for faults the camera
/// recovered from.
public struct FrameDelivery: Sendable, Equatable {
    /// The faults behind the four counts below, as the backend and the live stream count them.
    package var faults = StreamFaults()
    /// Frames that began before the request and were skipped (0 or 1 on a running stream: the
    /// photo is the next frame).
    public var staleFramesSkipped: Int { get { faults.staleFrames } set { faults.staleFrames = newValue } }
    /// Frames the driver flagged as corrupt (V4L2_BUF_FLAG_ERROR) or delivered short, skipped
    /// since the previous photo (the live stream reports each fault with the first photo after it).
    public var corruptFramesSkipped: Int { get { faults.corruptFrames } set { faults.corruptFrames = newValue } }
    /// Frames the driver dropped (sequence gaps) since the previous photo.
    public var droppedFrames: Int { get { faults.droppedFrames } set { faults.droppedFrames = newValue } }
    /// Stream restarts after a fatal streaming error or a failed start, since the previous photo.
    public var streamRestarts: Int { get { faults.restarts } set { faults.restarts = newValue } }
    /// Nanoseconds from the request to the start of the frame's exposure; 0 when the exposure
    /// began before the request (zero shutter lag), see ``exposureStartOffsetNanoseconds``.
    public var requestToExposureNanoseconds: UInt64 = 0
    /// The frame's exposure start minus the request instant, in nanoseconds: negative when the
    /// exposure was already under way at the request (zero shutter lag).
    public var exposureStartOffsetNanoseconds: Int64 = 0
    /// Which rule picked the frame.
    public var frameSelection: FrameSelection = .firstFrameAfterRequest
    /// Nanoseconds from the request until the frame was in hand (dequeued from the driver).
    public var requestToDeliveryNanoseconds: UInt64 = 0

    /// No skips, no restarts.
    public init() {}

    /// Sets the three delays of a frame whose exposure started at `exposureStart` and that was
    /// in hand at `delivered`, counted from `request` (monotonic nanoseconds), so that every
    /// backend clamps and signs them alike.
    package mutating func measureDelays(from request: UInt64, exposureStart: UInt64, delivered: UInt64) {
        requestToExposureNanoseconds = exposureStart - min(exposureStart, request)
        exposureStartOffsetNanoseconds = Int64(bitPattern: exposureStart &- request)
        requestToDeliveryNanoseconds = delivered - min(delivered, request)
    }
}
