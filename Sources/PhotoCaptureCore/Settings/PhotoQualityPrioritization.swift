/// How much a photo may trade speed for quality, as Apple's
/// `AVCapturePhotoOutput.QualityPrioritization` names it.
///
/// Here quality means less noise: the photo's frame (the reference) is merged with aligned
/// neighbours from the live stream (see <doc:MultiFrameMerging>). The levels are ordered, so a
/// request can be compared with ``PhotoOutput/maxPhotoQualityPrioritization``.
public enum PhotoQualityPrioritization: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// One frame, as delivered: the fastest photo.
    case speed = 1
    /// Frames from before the request are merged when the scene is dark enough to need it (the
    /// scene monitor judges it too dark, ``SceneLighting/notEnoughLight``); otherwise one frame.
    /// Without the monitor running (nothing started it: see
    /// ``FrameMerging/Limitation/sceneNotMonitored``) the photo is one frame.
    case balanced = 2
    /// The reference and up to six neighbours, from before and, where needed, right after the
    /// request, whatever the light.
    case quality = 3

    /// Orders by how much quality is asked for.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `speed`, `balanced` or `quality`.
    public var description: String {
        switch self {
        case .speed: "speed"
        case .balanced: "balanced"
        case .quality: "quality"
        }
    }
}

extension PhotoQualityPrioritization {
    /// Neighbours merged with the reference: how many from before the request at most, and in
    /// all (the rest from right after it). `.balanced` takes only frames already in hand, so it
    /// never waits for the camera.
    var neighbours: (before: Int, total: Int) {
        switch self {
        case .speed: (0, 0)
        case .balanced: (2, 2)
        case .quality: (4, 6)
        }
    }
}
