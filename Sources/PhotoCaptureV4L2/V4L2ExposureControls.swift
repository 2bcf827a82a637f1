import PhotoCaptureCore
import Synchronization
import V4L2

/// A V4L2 camera's exposure-type controls, as a bracket uses them:
/// `V4L2_CID_AUTO_EXPOSURE_BIAS` (0.001 EV units, usually an integer menu),
/// `V4L2_CID_EXPOSURE_ABSOLUTE` (100 µs units) with `V4L2_CID_EXPOSURE_AUTO` switched to manual,
/// and `V4L2_CID_ANALOGUE_GAIN` or else `V4L2_CID_GAIN` with `V4L2_CID_AUTOGAIN` switched off.
///
/// V4L2 gains have no standard unit, so the gain control's value is reported as the ISO.
/// Every value is read back after it is set: drivers clamp and round.
final class V4L2ExposureControls: ExposureControls {
    /// See ``CaptureDevice/framesToSettle``.
    static let defaultFramesToSettle = 3
    /// Each member holds a frame only while it is converted, so the bound is time, not buffers.
    static let maximumBracketCount = 8
    /// Seconds per step of V4L2_CID_EXPOSURE_ABSOLUTE.
    static let exposureUnit = 100e-6

    private struct Control {
        let id: UInt32
        let key: String
    }

    private struct State {
        /// Controls changed since the last restore, with their earlier values, in change order.
        var saved: [(control: Control, value: Int64)] = []
        var isInterrupted = false
        var framesToSettle = V4L2ExposureControls.defaultFramesToSettle
    }

    let capabilities: ExposureCapabilities
    let gate = SerialGate()
    var maximumBracketCount: Int { Self.maximumBracketCount }
    private let device: V4L2Device
    private let bias: Control?
    /// Menu index → millis EV, when the bias is an integer menu.
    private let biasMenu: [(index: Int64, millis: Int64)]?
    private let exposure: Control?
    private let exposureMode: Control?
    private let gain: Control?
    private let autoGain: Control?
    private let state = Mutex(State())

    /// The controls of `device`; nil when they cannot be listed.
    init?(device: V4L2Device) {
        guard let all = try? device.controls() else { return nil }
        func writable(_ id: UInt32, _ kinds: [V4L2Control.Kind]) -> V4L2Control? {
            all.first { $0.id == id && !$0.isReadOnly && kinds.contains($0.kind) }
        }
        func control(_ raw: V4L2Control?) -> Control? { raw.map { Control(id: $0.id, key: $0.key) } }
        self.device = device

        // Bias: an integer menu of millis EV (the usual form) or a plain integer in millis EV.
        let biasControl = writable(V4L2ControlID.autoExposureBias, [.integerMenu, .integer])
        var biasRange: ExposureControlRange?
        if let biasControl, biasControl.kind == .integerMenu {
            let menu = biasControl.menuItems.compactMap { item in Int64(item.label).map { (index: item.value, millis: $0) } }
            biasMenu = menu.isEmpty ? nil : menu
            biasRange = biasMenu.map { ExposureControlRange(control: biasControl.key, values: $0.map { Double($0.millis) / 1000 }) }
        } else {
            biasMenu = nil
            biasRange = biasControl.map {
                ExposureControlRange(control: $0.key, minimum: Double($0.minimum) / 1000, maximum: Double($0.maximum) / 1000,
                                     step: Double($0.step) / 1000)
            }
        }
        bias = biasRange == nil ? nil : control(biasControl)

        // Exposure time: usable only where automatic exposure can be switched to manual.
        let mode = writable(V4L2ControlID.exposureAuto, [.menu])
        let modeOffersManual = mode?.menuItems.contains { $0.value == V4L2ExposureMode.manual.rawValue } ?? true
        let absolute = modeOffersManual ? writable(V4L2ControlID.exposureAbsolute, [.integer]) : nil
        exposure = control(absolute)
        exposureMode = absolute == nil ? nil : control(mode)

        // Gain: analogue gain where the sensor driver has it, else the generic gain.
        let gainControl = writable(V4L2ControlID.analogueGain, [.integer]) ?? writable(V4L2ControlID.gain, [.integer])
        gain = control(gainControl)
        autoGain = gainControl == nil ? nil : control(writable(V4L2ControlID.autoGain, [.boolean]))

        // A time or gain of 0 cannot be scaled or written into EXIF: the ranges start above it.
        func positiveRange(_ raw: V4L2Control?, unit: Double) -> ExposureControlRange? {
            guard let raw, raw.maximum > 0 else { return nil }
            let step = Int64(max(raw.step, 1))
            let minimum = raw.minimum > 0 ? raw.minimum : raw.minimum + ((0 - raw.minimum) / step + 1) * step
            return ExposureControlRange(control: raw.key, minimum: Double(minimum) * unit, maximum: Double(raw.maximum) * unit,
                                        step: Double(step) * unit)
        }
        capabilities = ExposureCapabilities(exposureTargetBias: biasRange,
                                            exposureDuration: positiveRange(absolute, unit: Self.exposureUnit),
                                            iso: positiveRange(gainControl, unit: 1))
    }

    var framesToSettle: Int {
        get { state.withLock { $0.framesToSettle } }
        set { state.withLock { $0.framesToSettle = max(0, newValue) } }
    }

    func metered() throws(PhotoCaptureError) -> ExposureReading {
        try state.withLock { (state) throws(PhotoCaptureError) in
            // While a bracket runs, its values are not what the camera metered.
            func value(_ control: Control) throws(PhotoCaptureError) -> Int64 {
                if let saved = state.saved.first(where: { $0.control.id == control.id }) { return saved.value }
                return try read(control)
            }
            var reading = ExposureReading()
            if let bias { reading.bias = biasEV(try value(bias)) }
            if let exposure { reading.duration = Double(try value(exposure)) * Self.exposureUnit }
            if let gain { reading.iso = Double(try value(gain)) }
            return reading
        }
    }

    func apply(_ target: ExposureTarget) throws(PhotoCaptureError) -> ExposureReading {
        try state.withLock { (state) throws(PhotoCaptureError) in
            guard !state.isInterrupted else { throw PhotoCaptureError(.bracket(.interrupted)) }
            var touched: [Control] = []
            func set(_ control: Control, _ value: Int64) throws(PhotoCaptureError) {
                if !state.saved.contains(where: { $0.control.id == control.id }) {
                    state.saved.append((control, try read(control)))
                }
                do {
                    try device.setValue(value, of: control.id)
                } catch {
                    throw PhotoCaptureError(error)
                }
                touched.append(control)
            }
            if let value = target.bias, let bias {
                try set(bias, biasMenu.map { menu in menu.min { abs(Double($0.millis) - value * 1000) < abs(Double($1.millis) - value * 1000) }!.index }
                    ?? Int64((value * 1000).rounded()))
            }
            if let seconds = target.duration, let exposure {
                if let exposureMode { try set(exposureMode, V4L2ExposureMode.manual.rawValue) }
                try set(exposure, Int64((seconds / Self.exposureUnit).rounded()))
            }
            if let iso = target.iso, let gain {
                if let autoGain { try set(autoGain, 0) }
                try set(gain, Int64(iso.rounded()))
            }
            return try reading(touched)
        }
    }

    /// The values the driver reports now; time and gain only where they are manual (under
    /// automatic control the value read may be stale).
    private func reading(_ touched: [Control]) throws(PhotoCaptureError) -> ExposureReading {
        var reading = ExposureReading()
        if let bias { reading.bias = biasEV(try read(bias)) }
        if let exposure, try exposureMode.map({ (mode) throws(PhotoCaptureError) in try read(mode) == V4L2ExposureMode.manual.rawValue }) ?? true {
            reading.duration = Double(try read(exposure)) * Self.exposureUnit
        }
        if let gain, try autoGain.map({ (auto) throws(PhotoCaptureError) in try read(auto) == 0 }) ?? true {
            reading.iso = Double(try read(gain))
        }
        var seen = Set<UInt32>()
        for control in touched where seen.insert(control.id).inserted {
            reading.controls.append(AppliedExposure.ControlValue(key: control.key, value: try read(control)))
        }
        return reading
    }

    func restore() throws(PhotoCaptureError) {
        try state.withLock { (state) throws(PhotoCaptureError) in try restore(&state) }
    }

    func interrupt() throws(PhotoCaptureError) {
        try state.withLock { (state) throws(PhotoCaptureError) in
            state.isInterrupted = true
            try restore(&state)
        }
    }

    /// Latest change first, so a manual value goes back before its automatic mode does.
    private func restore(_ state: inout State) throws(PhotoCaptureError) {
        var failed: [String] = []
        var firstError: V4L2Error?
        for (control, value) in state.saved.reversed() {
            do {
                try device.setValue(value, of: control.id)
            } catch {
                failed.append(control.key)
                firstError = firstError ?? error
            }
        }
        state.saved = []
        if let firstError {
            throw PhotoCaptureError(.bracket(.controlsNotRestored(device: device.path, controls: failed.reversed(), error: DeviceError(firstError))))
        }
    }

    private func read(_ control: Control) throws(PhotoCaptureError) -> Int64 {
        do {
            return try device.value(of: control.id)
        } catch {
            throw PhotoCaptureError(error)
        }
    }

    private func biasEV(_ value: Int64) -> Double {
        let millis = biasMenu.map { menu in menu.first { $0.index == value }?.millis ?? 0 } ?? value
        return Double(millis) / 1000
    }
}

extension V4L2FrameSource {
    var exposureControls: (any ExposureControls)? { exposure }
    var hardwareCropping: (any HardwareCroppingSource)? { self }
    var cameraControls: (any CameraControls)? { V4L2CameraControls(device: stream.device) }
    var devicePath: String? { stream.device.path }
}
