extension CaptureDevice {
    var focusControls: (any FocusControls)? {
        guard let controls = source.focusControls, !controls.capabilities.supportedFocusModes.isEmpty else { return nil }
        return controls
    }

    /// The focus modes and manual lens range of the camera; nil when it has no focus control
    /// (the frame-file camera, vivid, most fixed-focus webcams and capture cards).
    public var focusCapabilities: FocusCapabilities? { focusControls?.capabilities }

    /// Whether a request can ask for `mode` (`AVCaptureDevice.isFocusModeSupported(_:)`).
    public func isFocusModeSupported(_ mode: FocusMode) -> Bool { focusCapabilities?.isFocusModeSupported(mode) ?? false }

    /// Puts back every focus control a request in progress changed and makes further focus
    /// changes fail (``FocusProblem/interrupted``), for signal handlers and emergency exits
    /// (`photocap shoot --focus` calls it on SIGINT). Throws
    /// ``FocusProblem/controlsNotRestored(device:controls:error:)`` when the camera refuses.
    public func interruptFocus() throws(PhotoCaptureError) {
        guard let controls = focusControls else { return }
        try controls.ledger.interrupt(controls, device: uniqueID)
    }
}
