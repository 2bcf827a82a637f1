import FoundationEssentials
import Synchronization

/// The synthetic camera's lens (see ``CaptureDevice/SyntheticLensConfiguration``): the four
/// focus controls of an autofocus camera (as a V4L2 one has them) over a simulated lens.
///
/// Like the exposure model, a change reaches the frames that start after it takes effect: a
/// manual position `controlDelayFrames` frames after it is set; an autofocus scan (one-shot, or
/// continuous autofocus switched on) moves the lens to the in-focus position when it ends,
/// `autoFocusFrames` frames after it starts, or fails and leaves it.
final class SyntheticLens: FocusControls {
    /// focus_absolute's range.
    static let lensRange = ExposureControlRange(control: "focus_absolute", minimum: 0, maximum: 1023, step: 1)

    private struct State {
        var continuous: Bool
        /// The position the control holds (the lens's target).
        var position: Int64
        /// When the running scan ends (one-shot, or continuous autofocus catching up).
        var scanEndsAt: UInt64?
        /// How the last scan ended; nil before the first.
        var lastScanReached: Bool?
        /// The lens position each frame sees.
        var timeline: ControlTimeline<Int64>
    }

    let capabilities = FocusCapabilities(supportedFocusModes: FocusMode.allCases, lensPosition: SyntheticLens.lensRange)
    let framesToSettle: Int
    let ledger = FocusLedger()
    private let inFocus: Int64
    private let findsSubject: Bool
    private let frameInterval: UInt64
    private let scanFrames: Int
    private let state: Mutex<State>

    init(_ configuration: CaptureDevice.SyntheticLensConfiguration, framesPerSecond: Int) {
        let range = Self.lensRange
        inFocus = Int64(range.nearest(Double(configuration.inFocusLensPosition)))
        findsSubject = configuration.autoFocusFindsSubject
        frameInterval = MonotonicClock.frameInterval(framesPerSecond: framesPerSecond)
        scanFrames = configuration.autoFocusFrames
        framesToSettle = configuration.controlDelayFrames
        let start = configuration.initialLensPosition.map { Int64(range.nearest(Double($0))) }
        state = Mutex(State(continuous: start == nil, position: start ?? inFocus, timeline: ControlTimeline(start ?? inFocus)))
    }

    /// How far from sharp a frame whose exposure started at `instant` is: 0 in focus, 1 the
    /// whole lens range away.
    func defocus(forExposureStartingAt instant: UInt64) -> Double {
        let position = state.withLock { $0.timeline.value(forExposureStartingAt: instant) } ?? inFocus
        return Double(abs(position - inFocus)) / Self.lensRange.maximum
    }

    func value(of control: FocusControl) throws(PhotoCaptureError) -> Int64 {
        let now = MonotonicClock.now()
        return try state.withLock { (state) throws(PhotoCaptureError) in
            finishScan(&state, at: now)
            switch control {
            case .continuous: return state.continuous ? 1 : 0
            case .lensPosition: return state.position
            case .start: return 0
            case .status:
                throw PhotoCaptureError(.invalidControl("auto_focus_status is read as a scan status"))
            }
        }
    }

    func scanStatus() throws(PhotoCaptureError) -> FocusScanStatus {
        let now = MonotonicClock.now()
        return state.withLock { state in
            finishScan(&state, at: now)
            if state.scanEndsAt != nil { return .busy }
            return state.lastScanReached.map { $0 ? .reached : .failed } ?? .idle
        }
    }

    func set(_ control: FocusControl, to value: Int64) throws(PhotoCaptureError) {
        let now = MonotonicClock.now()
        try state.withLock { (state) throws(PhotoCaptureError) in
            finishScan(&state, at: now)
            switch control {
            case .continuous:
                let on = value != 0
                guard on != state.continuous else { return }
                state.continuous = on
                // Switched on, it scans and keeps the subject sharp; off, the lens stays where
                // it was going.
                if on {
                    scan(&state, at: now, oneShot: false)
                } else if state.scanEndsAt != nil {
                    (state.scanEndsAt, state.lastScanReached, state.position) = (nil, true, inFocus)
                }
            case .lensPosition:
                // As on UVC cameras: the lens is continuous autofocus's while it runs; a one-shot
                // scan is abandoned (it ends failed, and its move never happens).
                guard !state.continuous else {
                    throw PhotoCaptureError(.invalidControl("focus_absolute cannot be set during continuous autofocus"))
                }
                if state.scanEndsAt != nil {
                    (state.scanEndsAt, state.lastScanReached) = (nil, false)
                    state.timeline.forget { due, _ in due > now }
                }
                state.position = Int64(Self.lensRange.nearest(Double(value)))
                state.timeline.record(state.position, after: now + UInt64(framesToSettle) * frameInterval)
            case .start:
                guard !state.continuous else {
                    throw PhotoCaptureError(.invalidControl("auto_focus_start cannot be pressed during continuous autofocus"))
                }
                scan(&state, at: now, oneShot: true)
            case .status:
                throw PhotoCaptureError(.invalidControl("auto_focus_status is read-only"))
            }
        }
    }

    /// A scan ends `scanFrames` frames from `now` with the lens in focus, unless a one-shot scan
    /// cannot find the subject (continuous autofocus keeps at it until it does). The status is
    /// BUSY meanwhile.
    private func scan(_ state: inout State, at now: UInt64, oneShot: Bool) {
        let end = now + UInt64(scanFrames) * frameInterval
        state.scanEndsAt = end
        state.lastScanReached = nil
        guard findsSubject || !oneShot else { return }
        state.timeline.record(inFocus, after: end)
    }

    private func finishScan(_ state: inout State, at now: UInt64) {
        if let end = state.scanEndsAt, now >= end {
            state.scanEndsAt = nil
            state.lastScanReached = findsSubject || state.continuous
            if findsSubject || state.continuous { state.position = inFocus }
        } else if state.continuous, state.scanEndsAt == nil {
            state.position = inFocus
        }
    }
}

extension StillFrameSource {
    nonisolated var focusControls: (any FocusControls)? { lens }
}
