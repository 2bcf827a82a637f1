/// What a camera's lens can do, modelled on `AVCaptureDevice.isFocusModeSupported(_:)` and
/// `lensPosition`: ``CaptureDevice/focusCapabilities`` is nil for a camera without focus
/// controls.
public struct FocusCapabilities: Sendable, Equatable {
    /// The modes the camera supports, in ``FocusMode`` order.
    public let supportedFocusModes: [FocusMode]
    /// The lens positions a manual request can choose (V4L2_CID_FOCUS_ABSOLUTE's minimum, maximum
    /// and step, in the driver's units); nil when the lens cannot be placed by hand.
    public let lensPosition: ExposureControlRange?

    /// Capabilities from the supported modes and the manual range.
    public init(supportedFocusModes: [FocusMode], lensPosition: ExposureControlRange?) {
        self.supportedFocusModes = FocusMode.allCases.filter(supportedFocusModes.contains)
        self.lensPosition = lensPosition
    }

    /// Whether `mode` can be requested.
    public func isFocusModeSupported(_ mode: FocusMode) -> Bool { supportedFocusModes.contains(mode) }
}
