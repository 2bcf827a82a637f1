extension SettingsResolver {
    /// The request's focus against the camera's focus controls: a camera without the mode
    /// rejects it before capture; a manual position outside the control's range is clamped and
    /// reported, as bracket exposure values are.
    func resolvedFocus(for settings: PhotoSettings, adjustments: inout [SettingsAdjustment]) throws(PhotoCaptureError) -> ResolvedFocus? {
        guard let request = settings.focus else { return nil }
        func reject(_ problem: FocusProblem) -> PhotoCaptureError { PhotoCaptureError(.focus(problem), uniqueID: settings.uniqueID) }
        guard let capabilities = device.focusCapabilities else { throw reject(.noFocusControls(device: device.uniqueID)) }
        guard capabilities.isFocusModeSupported(request.mode) else {
            throw reject(.modeUnsupported(device: device.uniqueID, mode: request.mode, supported: capabilities.supportedFocusModes))
        }
        switch request {
        case .continuous:
            return ResolvedFocus(mode: .continuousAutoFocus)
        case .manual(let position):
            guard position.isFinite else { throw reject(.invalidLensPosition(position)) }
            // `.locked` is supported only with a lens position control.
            guard let range = capabilities.lensPosition else { throw reject(.modeUnsupported(
                device: device.uniqueID, mode: .locked, supported: capabilities.supportedFocusModes)) }
            let chosen = range.nearest(position)
            if chosen != position { adjustments.append(.lensPosition(requested: position, chosen: chosen)) }
            return ResolvedFocus(mode: .locked, requestedLensPosition: chosen)
        case .once(let timeout):
            guard timeout > .zero else { throw reject(.invalidTimeout(timeout)) }
            return ResolvedFocus(mode: .autoFocus, autoFocusTimeout: timeout)
        }
    }
}
