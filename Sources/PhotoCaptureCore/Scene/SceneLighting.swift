/// How the light of the scene in front of the camera suits a photo, as the scene monitor judges
/// it: one level at a time.
///
/// Not Apple's `AVCaptureSceneMonitoringStatus`, of which a device reports a set of independent
/// conditions: these values are one measurement's exclusive levels (a scene is not too dark and
/// too bright at once), so a single value says it without impossible combinations.
public enum SceneLighting: String, Sendable, Equatable {
    /// Not judged yet (no frame analysed, or the stream stopped).
    case unknown
    /// Enough light and little clipping.
    case normal
    /// Too dark for a good photo: a flash would help (Apple's `isFlashScene`).
    case notEnoughLight
    /// Large parts of the picture clip to white.
    case tooBright
}

/// The scene monitor's judgement under its former name.
@available(*, deprecated, renamed: "SceneLighting")
public typealias SceneStatus = SceneLighting
