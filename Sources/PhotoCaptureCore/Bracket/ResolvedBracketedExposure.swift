/// One bracket member as resolved against the camera: which control carries it and the values
/// that will be set (nearest achievable, with any difference listed in
/// ``ResolvedPhotoSettings/adjustments``).
public struct ResolvedBracketedExposure: Sendable, Equatable {
    /// 1-based position in the bracket; the photo of this member has the same
    /// ``CapturePhoto/sequenceCount``.
    public let sequenceCount: Int
    /// The member as requested.
    public let requested: BracketedStillImageSettings
    /// The control that carries it.
    public let method: BracketExposureMethod
    /// The bias in EV relative to the metered exposure; nil for manual members.
    public let exposureTargetBias: Double?
    /// The exposure time that will be set, in seconds; nil when exposure time is left to the
    /// camera.
    public let exposureDuration: Double?
    /// The ISO that will be set; nil when the sensitivity is left to the camera.
    public let iso: Double?
    /// The metered value a scaled member is a multiple of (seconds or ISO), to state the bias
    /// actually applied.
    let meteredValue: Double?

    /// What the exposure controls are told for this member.
    var target: ExposureTarget {
        switch method {
        case .exposureTargetBias: return ExposureTarget(bias: exposureTargetBias)
        case .exposureDuration: return ExposureTarget(duration: exposureDuration)
        case .iso: return ExposureTarget(iso: iso)
        case .manual: return ExposureTarget(duration: exposureDuration, iso: iso)
        }
    }
}

/// What exposure controls are set to for one member; nil fields are not touched.
package struct ExposureTarget: Sendable, Equatable {
    package var bias: Double?
    package var duration: Double?
    package var iso: Double?
}
