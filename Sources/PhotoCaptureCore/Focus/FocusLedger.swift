import Synchronization

/// The focus controls the request in progress on one camera changed, with their values before
/// the change: what a restore puts back, also from a signal handler
/// (``CaptureDevice/interruptFocus()``). One per camera, owned by its ``FocusControls``; requests
/// that set focus pass ``gate`` one at a time, since they share the lens.
package final class FocusLedger: Sendable {
    private struct State {
        var saved: [(control: FocusControl, value: Int64)] = []
        var isInterrupted = false
    }

    package let gate = SerialGate()
    private let state = Mutex(State())

    /// A new, empty one.
    package init() {}

    /// Keeps `control`'s value before its first change, read with `current`; refuses after an
    /// interrupt.
    package func remember(_ control: FocusControl, current: () throws(PhotoCaptureError) -> Int64) throws(PhotoCaptureError) {
        try state.withLock { (state) throws(PhotoCaptureError) in
            guard !state.isInterrupted else { throw PhotoCaptureError(.focus(.interrupted)) }
            if !state.saved.contains(where: { $0.control == control }) { state.saved.append((control, try current())) }
        }
    }

    /// Sets every saved control back on `controls`, latest change first; throws
    /// ``FocusProblem/controlsNotRestored(device:controls:error:)`` naming those refused (the
    /// others are restored all the same).
    package func restore(_ controls: any FocusControls, device: String) throws(PhotoCaptureError) {
        try state.withLock { (state) throws(PhotoCaptureError) in try restore(&state, controls, device: device) }
    }

    /// ``restore(_:device:)``, then refuses every later change.
    package func interrupt(_ controls: any FocusControls, device: String) throws(PhotoCaptureError) {
        try state.withLock { (state) throws(PhotoCaptureError) in
            state.isInterrupted = true
            try restore(&state, controls, device: device)
        }
    }

    private func restore(_ state: inout State, _ controls: any FocusControls, device: String) throws(PhotoCaptureError) {
        var failed: [String] = []
        var firstError: PhotoCaptureError?
        for (control, value) in state.saved.reversed() {
            do {
                try controls.set(control, to: value)
            } catch {
                failed.append(control.rawValue)
                firstError = firstError ?? error
            }
        }
        state.saved = []
        if let firstError {
            throw PhotoCaptureError(.focus(.controlsNotRestored(device: device, controls: failed.reversed(), error: firstError)))
        }
    }
}
