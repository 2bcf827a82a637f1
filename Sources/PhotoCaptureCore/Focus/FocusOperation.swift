/// Focuses a camera for one request; ``restore()`` puts back every focus control it changed,
/// latest change first (so a manual lens position goes back before continuous autofocus is
/// switched on again), as a bracket puts back exposure. A one-shot scan moves the lens too, so
/// its position goes back as well. The values to restore are kept in the camera's
/// ``FocusLedger``, where a signal handler finds them too.
struct FocusOperation {
    /// How often a one-shot scan's status is read.
    static let pollInterval: Duration = .milliseconds(5)

    let controls: any FocusControls
    let device: String

    init(controls: any FocusControls, device: String) {
        self.controls = controls
        self.device = device
    }

    /// Puts the lens as `focus` says and returns it with what the camera reports afterwards.
    func focus(_ focus: ResolvedFocus) async throws(PhotoCaptureError) -> ResolvedFocus {
        var result = focus
        let modes = controls.capabilities.supportedFocusModes
        switch focus.mode {
        case .continuousAutoFocus:
            // Switched off again, continuous autofocus would leave the lens where it found focus:
            // a lens placed by hand goes back where it was (saved first, so restored last).
            if controls.capabilities.lensPosition != nil, try read(.continuous) == 0 { try remember(.lensPosition) }
            try set(.continuous, 1)
            // Where the camera says when it has caught up, wait for that (the result is its own
            // business: continuous autofocus keeps trying).
            if modes.contains(.autoFocus) {
                _ = try await scanResult(within: focus.autoFocusTimeout ?? FocusRequest.defaultAutoFocusTimeout)
            }
        case .locked:
            // Without continuous autofocus the lens is always placed by hand.
            if modes.contains(.continuousAutoFocus) { try set(.continuous, 0) }
            try set(.lensPosition, Int64((focus.requestedLensPosition ?? 0).rounded()))
        case .autoFocus:
            if modes.contains(.continuousAutoFocus) { try set(.continuous, 0) }
            if controls.capabilities.lensPosition != nil { try remember(.lensPosition) }
            try press(.start)
            result.autoFocusResult = try await scanResult(within: focus.autoFocusTimeout ?? FocusRequest.defaultAutoFocusTimeout)
        }
        if controls.capabilities.lensPosition != nil { result.lensPosition = Double(try read(.lensPosition)) }
        return result
    }

    /// Waits for the scan to leave BUSY, at most `timeout`.
    private func scanResult(within timeout: Duration) async throws(PhotoCaptureError) -> AutoFocusResult {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            switch try asking(.status, { () throws(PhotoCaptureError) in try controls.scanStatus() }) {
            case .busy: break
            case .reached: return .reached
            case .failed, .idle: return .failed
            }
            guard clock.now < deadline else { return .timedOut }
            try? await Task.sleep(for: Self.pollInterval)
        }
    }

    /// Sets every changed control back; throws ``FocusProblem/controlsNotRestored(device:controls:error:)``
    /// naming those the camera refused (the others are restored all the same).
    func restore() throws(PhotoCaptureError) {
        try controls.ledger.restore(controls, device: device)
    }

    private func set(_ control: FocusControl, _ value: Int64) throws(PhotoCaptureError) {
        try remember(control)
        try press(control, value)
    }

    /// Keeps the value before the first change, to restore.
    private func remember(_ control: FocusControl) throws(PhotoCaptureError) {
        try controls.ledger.remember(control) { () throws(PhotoCaptureError) in try read(control) }
    }

    /// Writes without saving: a button has no value to restore.
    private func press(_ control: FocusControl, _ value: Int64 = 1) throws(PhotoCaptureError) {
        do {
            try controls.set(control, to: value)
        } catch {
            throw PhotoCaptureError(.focus(.controlRefused(device: device, control: control.rawValue, error: error)))
        }
    }

    private func read(_ control: FocusControl) throws(PhotoCaptureError) -> Int64 {
        try asking(control) { () throws(PhotoCaptureError) in try controls.value(of: control) }
    }

    /// What `body` reads from `control`; a refusal names it.
    private func asking<Value>(_ control: FocusControl, _ body: () throws(PhotoCaptureError) -> Value) throws(PhotoCaptureError) -> Value {
        do {
            return try body()
        } catch {
            throw PhotoCaptureError(.focus(.controlRefused(device: device, control: control.rawValue, error: error)))
        }
    }
}
