/// The exposure-type controls a camera has, in physical units: what a bracket can drive.
///
/// Modelled on `AVCaptureDevice`'s `minExposureTargetBias`, `activeFormat.minISO` and friends.
/// A nil range means the camera has no such control.
public struct ExposureCapabilities: Sendable, Equatable {
    /// Exposure target bias of the automatic exposure, in EV (V4L2_CID_AUTO_EXPOSURE_BIAS).
    public let exposureTargetBias: ExposureControlRange?
    /// Exposure time, in seconds (V4L2_CID_EXPOSURE_ABSOLUTE, which counts 100 µs units).
    public let exposureDuration: ExposureControlRange?
    /// Sensitivity as ISO (V4L2_CID_ANALOGUE_GAIN or V4L2_CID_GAIN: the gain control's value).
    public let iso: ExposureControlRange?

    /// Capabilities from the three optional ranges.
    public init(exposureTargetBias: ExposureControlRange?, exposureDuration: ExposureControlRange?,
                iso: ExposureControlRange?) {
        self.exposureTargetBias = exposureTargetBias
        self.exposureDuration = exposureDuration
        self.iso = iso
    }

    /// Whether the camera has any control a bracket can use.
    public var isEmpty: Bool { exposureTargetBias == nil && exposureDuration == nil && iso == nil }
}
