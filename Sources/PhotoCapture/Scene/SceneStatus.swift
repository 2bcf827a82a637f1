/// What the scene in front of the camera asks of a photo, as the scene monitor judges it.
public enum SceneStatus: String, Sendable, Equatable {
    /// Not judged yet (no frame analysed, or the stream stopped).
    case unknown
    /// Enough light and little clipping.
    case normal
    /// Too dark for a good photo: a flash would help (Apple's `isFlashScene`).
    case notEnoughLight
    /// Large parts of the picture clip to white.
    case tooBright
}
