/// How a bracket member is realised on the camera.
public enum BracketExposureMethod: String, Sendable, Equatable {
    /// The camera's auto-exposure bias control; automatic exposure stays on.
    case exposureTargetBias
    /// A bias as a multiple of the metered exposure time, with automatic exposure switched to
    /// manual (cameras with exposure time but no bias control).
    case exposureDuration
    /// A bias as a multiple of the metered gain, with automatic gain off (cameras whose only
    /// exposure-type control is gain).
    case iso
    /// Manual exposure time and ISO as requested.
    case manual
}
