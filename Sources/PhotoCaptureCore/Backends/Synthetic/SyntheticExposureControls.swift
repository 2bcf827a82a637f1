import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

extension CaptureDevice {
    /// The synthetic camera's exposure model: which controls it has, how late it applies them,
    /// and how many photos a bracket may have.
    public struct SyntheticExposureConfiguration: Sendable, Equatable {
        /// The controls the simulated camera has (all three by default; none makes a camera that
        /// cannot take brackets).
        public var controls: SyntheticExposureControlSet
        /// Frames between a control change and the first frame exposed with it, as a sensor's
        /// control pipeline delays it; ``CaptureDevice/framesToSettle`` defaults to this.
        public var controlDelayFrames: Int
        /// ``CaptureDevice/maxBracketedCapturePhotoCount``.
        public var maxBracketedCapturePhotoCount: Int
        /// Whether changes are scheduled per frame, as libcamera's per-frame controls are: a
        /// bracket then takes its members on consecutive frames. Off, the camera is driven as a
        /// V4L2 camera is: each member set once the previous member's frame is in hand, then
        /// ``CaptureDevice/framesToSettle`` frames let pass.
        public var perFrameControls: Bool

        /// Every control, a two-frame delay, at most 8 photos per bracket, per-frame controls.
        public init(controls: SyntheticExposureControlSet = .all, controlDelayFrames: Int = 2,
                    maxBracketedCapturePhotoCount: Int = 8, perFrameControls: Bool = true) {
            self.controls = controls
            self.controlDelayFrames = max(0, controlDelayFrames)
            self.maxBracketedCapturePhotoCount = max(1, maxBracketedCapturePhotoCount)
            self.perFrameControls = perFrameControls
        }
    }
}

/// Exposure controls of the synthetic camera.
public struct SyntheticExposureControlSet: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates a set from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// An auto-exposure bias, −4...+4 EV.
    public static let exposureTargetBias = SyntheticExposureControlSet(rawValue: 1)
    /// Exposure time, 100 µs...1 s in 100 µs steps (metered: 1/100 s).
    public static let exposureDuration = SyntheticExposureControlSet(rawValue: 2)
    /// ISO 25...6400 (metered: ISO 100, unity gain).
    public static let iso = SyntheticExposureControlSet(rawValue: 4)
    /// All three.
    public static let all: SyntheticExposureControlSet = [.exposureTargetBias, .exposureDuration, .iso]
}

/// The synthetic camera's exposure: each frame shows the scene's radiance × exposure time × gain,
/// clipped at white, relative to what its automatic exposure meters for the scene (1/100 s at
/// ISO 100, which shows ``SyntheticScene`` exactly).
///
/// A change takes effect `controlDelayFrames` frames after the first frame that starts after
/// it, like a sensor's control pipeline; frames are rendered with the exposure in effect when
/// they started.
final class SyntheticExposureControls: PerFrameExposureControls {
    static let meteredDuration = 0.01
    static let meteredISO = 100.0
    static let biasRange = ExposureControlRange(control: "auto_exposure_bias", minimum: -4, maximum: 4, step: 0)
    static let durationRange = ExposureControlRange(control: "exposure_time_absolute", minimum: 100e-6, maximum: 1, step: 100e-6)
    static let isoRange = ExposureControlRange(control: "iso", minimum: 25, maximum: 6400, step: 1)
    /// The values the model reports for `auto_exposure`, numbered as a V4L2 camera's menu
    /// (V4L2_EXPOSURE_AUTO, V4L2_EXPOSURE_MANUAL), so its applied controls read like one's.
    private enum AutoExposure: Int64 {
        case automatic = 0
        case manual = 1
    }

    /// The simulated controls.
    private struct Values: Equatable {
        var automaticExposure = true
        var automaticGain = true
        var bias = 0.0
        var duration = SyntheticExposureControls.meteredDuration
        var iso = SyntheticExposureControls.meteredISO

        /// What automatic exposure chooses: the metered time moved by the bias.
        var exposureDuration: Double {
            automaticExposure ? SyntheticExposureControls.durationRange.nearest(SyntheticExposureControls.meteredDuration * pow(2, bias))
                : duration
        }
        var sensitivity: Double { automaticGain ? SyntheticExposureControls.meteredISO : iso }
        /// Light reaching the pixels relative to the metered exposure.
        var factor: Double {
            exposureDuration * sensitivity / (SyntheticExposureControls.meteredDuration * SyntheticExposureControls.meteredISO)
        }
    }

    private struct State {
        var values = Values()
        var saved: Values?
        var isInterrupted = false
        var framesToSettle: Int
        /// The exposure factor each frame sees, each change with its serial number (0 the
        /// initial value, which is never forgotten).
        var timeline = ControlTimeline((factor: 1.0, serial: UInt64(0)))
        var lastSerial: UInt64 = 0
    }

    let capabilities: ExposureCapabilities
    let maximumBracketCount: Int
    let gate = SerialGate()
    private let frameInterval: UInt64
    private let delayFrames: Int
    private let schedulesPerFrame: Bool
    private let state: Mutex<State>

    init(_ configuration: CaptureDevice.SyntheticExposureConfiguration, framesPerSecond: Int) {
        let controls = configuration.controls
        capabilities = ExposureCapabilities(
            exposureTargetBias: controls.contains(.exposureTargetBias) ? Self.biasRange : nil,
            exposureDuration: controls.contains(.exposureDuration) ? Self.durationRange : nil,
            iso: controls.contains(.iso) ? Self.isoRange : nil)
        maximumBracketCount = configuration.maxBracketedCapturePhotoCount
        frameInterval = MonotonicClock.frameInterval(framesPerSecond: framesPerSecond)
        delayFrames = configuration.controlDelayFrames
        schedulesPerFrame = configuration.perFrameControls
        state = Mutex(State(framesToSettle: configuration.controlDelayFrames))
    }

    var framesToSettle: Int {
        get { state.withLock { $0.framesToSettle } }
        set { state.withLock { $0.framesToSettle = max(0, newValue) } }
    }

    /// The exposure factor of a frame whose exposure started at `instant`.
    func factor(forExposureStartingAt instant: UInt64) -> Double {
        state.withLock { state in state.timeline.value(forExposureStartingAt: instant)?.factor ?? 1 }
    }

    var perFrame: (any PerFrameExposureControls)? { schedulesPerFrame ? self : nil }

    func restore(forFramesStartingAfter instant: UInt64) -> UInt64 {
        state.withLock { state in
            defer { state.saved = nil }
            guard let saved = state.saved else { return instant }
            return set(saved, in: &state, after: instant).0
        }
    }

    func exposed(frameStartingAt start: UInt64, with change: ScheduledExposure) throws(PhotoCaptureError) -> Bool {
        try state.withLock { (state) throws(PhotoCaptureError) in
            guard !state.isInterrupted else { throw PhotoCaptureError(.bracket(.interrupted)) }
            return state.timeline.value(forExposureStartingAt: start)?.serial == change.serial
        }
    }

    /// A stream (re)start programs the sensor afresh: pending changes apply from its first frame.
    func streamStarted() {
        state.withLock { $0.timeline.bringForward(to: MonotonicClock.now()) }
    }

    func metered() throws(PhotoCaptureError) -> ExposureReading {
        state.withLock { reading(of: $0.saved ?? $0.values, touched: false) }
    }

    func apply(_ target: ExposureTarget) throws(PhotoCaptureError) -> ExposureReading {
        try apply(target, forFramesStartingAfter: 0).reading
    }

    func apply(_ target: ExposureTarget, forFramesStartingAfter instant: UInt64) throws(PhotoCaptureError) -> ScheduledExposure {
        try state.withLock { (state) throws(PhotoCaptureError) in
            guard !state.isInterrupted else { throw PhotoCaptureError(.bracket(.interrupted)) }
            if state.saved == nil { state.saved = state.values }
            var values = state.values
            if let bias = target.bias, let range = capabilities.exposureTargetBias { values.bias = range.nearest(bias) }
            if let duration = target.duration, let range = capabilities.exposureDuration {
                values.automaticExposure = false
                values.duration = range.nearest(duration)
            }
            if let iso = target.iso, let range = capabilities.iso {
                values.automaticGain = false
                values.iso = range.nearest(iso)
            }
            let (effectiveAfter, serial) = set(values, in: &state, after: instant)
            return ScheduledExposure(reading: reading(of: values, touched: true), effectiveAfter: effectiveAfter, serial: serial)
        }
    }

    func restore() throws(PhotoCaptureError) {
        _ = restore(forFramesStartingAfter: 0)
    }

    func interrupt() throws(PhotoCaptureError) {
        state.withLock { $0.isInterrupted = true }
        try restore()
    }

    /// Records `values` for frames starting after `instant`, or after the control delay from
    /// now when that is later; a change scheduled for later frames is replaced. Returns the
    /// instant taken and the change's serial number.
    private func set(_ values: Values, in state: inout State, after instant: UInt64) -> (UInt64, UInt64) {
        state.values = values
        let effectiveAfter = max(instant, MonotonicClock.now() + UInt64(delayFrames) * frameInterval)
        state.timeline.forget { due, change in due >= effectiveAfter && change.serial != 0 }
        state.lastSerial += 1
        state.timeline.record((values.factor, state.lastSerial), after: effectiveAfter)
        return (effectiveAfter, state.lastSerial)
    }

    /// The model knows its exposure time and ISO even under automatic control.
    private func reading(of values: Values, touched: Bool) -> ExposureReading {
        var reading = ExposureReading()
        reading.bias = capabilities.exposureTargetBias == nil ? nil : values.bias
        reading.duration = values.exposureDuration
        reading.iso = values.sensitivity
        guard touched else { return reading }
        func add(_ key: String, _ value: Int64) { reading.controls.append(AppliedExposure.ControlValue(key: key, value: value)) }
        if capabilities.exposureTargetBias != nil { add("auto_exposure_bias", Int64((values.bias * 1000).rounded())) }
        if capabilities.exposureDuration != nil {
            add("auto_exposure", (values.automaticExposure ? AutoExposure.automatic : .manual).rawValue)
            add("exposure_time_absolute", Int64((values.exposureDuration / 100e-6).rounded()))
        }
        if capabilities.iso != nil {
            add("gain_automatic", values.automaticGain ? 1 : 0)
            add("iso", Int64(values.sensitivity.rounded()))
        }
        return reading
    }
}

extension StillFrameSource {
    nonisolated var exposureControls: (any ExposureControls)? { exposure }
}
