import PhotoCaptureCore
import V4L2

/// A V4L2 camera's focus controls: `V4L2_CID_FOCUS_AUTO` (continuous autofocus),
/// `V4L2_CID_FOCUS_ABSOLUTE` (the lens position, in the driver's units) and the one-shot pair
/// `V4L2_CID_AUTO_FOCUS_START` / `V4L2_CID_AUTO_FOCUS_STATUS`.
///
/// A mode is offered only where its controls are all there: continuous autofocus needs the
/// switch, a locked lens the position, a one-shot scan both the button and the status (without
/// the status its end cannot be known).
final class V4L2FocusControls: FocusControls {
    /// Frames exposed while the lens travels after a change: as ``V4L2ExposureControls``' settle.
    static let defaultFramesToSettle = 3

    let capabilities: FocusCapabilities
    let framesToSettle = V4L2FocusControls.defaultFramesToSettle
    let ledger = FocusLedger()
    private let device: V4L2Device
    private let ids: [FocusControl: UInt32]

    /// The focus controls of `device`; nil when it has none or they cannot be listed.
    init?(device: V4L2Device) {
        guard let all = try? device.controls() else { return nil }
        func find(_ id: UInt32, _ kinds: [V4L2Control.Kind], readOnly: Bool = false) -> V4L2Control? {
            all.first { $0.id == id && $0.isReadOnly == readOnly && kinds.contains($0.kind) }
        }
        let continuous = find(V4L2ControlID.focusAuto, [.boolean])
        let position = find(V4L2ControlID.focusAbsolute, [.integer])
        let start = find(V4L2ControlID.autoFocusStart, [.button])
        let status = find(V4L2ControlID.autoFocusStatus, [.bitmask, .integer], readOnly: true)
        var ids: [FocusControl: UInt32] = [:]
        var modes: [FocusMode] = []
        if let continuous { ids[.continuous] = continuous.id; modes.append(.continuousAutoFocus) }
        if let position { ids[.lensPosition] = position.id; modes.append(.locked) }
        if let start, let status {
            ids[.start] = start.id
            ids[.status] = status.id
            modes.append(.autoFocus)
        }
        guard !modes.isEmpty else { return nil }
        self.device = device
        self.ids = ids
        capabilities = FocusCapabilities(supportedFocusModes: modes, lensPosition: position.map {
            ExposureControlRange(control: $0.key, minimum: Double($0.minimum), maximum: Double($0.maximum), step: Double(max($0.step, 1)))
        })
    }

    func value(of control: FocusControl) throws(PhotoCaptureError) -> Int64 {
        let id = try id(control)
        do {
            return try device.value(of: id)
        } catch {
            throw PhotoCaptureError(error)
        }
    }

    func scanStatus() throws(PhotoCaptureError) -> FocusScanStatus {
        FocusScanStatus(v4l2Bits: try value(of: .status))
    }

    func set(_ control: FocusControl, to value: Int64) throws(PhotoCaptureError) {
        let id = try id(control)
        do {
            try device.setValue(value, of: id)
        } catch {
            throw PhotoCaptureError(error)
        }
    }

    private func id(_ control: FocusControl) throws(PhotoCaptureError) -> UInt32 {
        guard let id = ids[control] else { throw PhotoCaptureError(.focus(.noFocusControls(device: device.path))) }
        return id
    }
}

extension FocusScanStatus {
    /// The status that V4L2_CID_AUTO_FOCUS_STATUS's bits report: busy while the busy bit is set,
    /// then reached or failed by their bits.
    init(v4l2Bits bits: Int64) {
        if bits & V4L2AutoFocusStatus.busy != 0 {
            self = .busy
        } else if bits & V4L2AutoFocusStatus.reached != 0 {
            self = .reached
        } else if bits & V4L2AutoFocusStatus.failed != 0 {
            self = .failed
        } else {
            self = .idle
        }
    }
}

extension V4L2FrameSource {
    var focusControls: (any FocusControls)? { focus }
}
