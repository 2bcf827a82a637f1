/// How many frames a processed photo is made of, and why not more: part of the resolved
/// settings (see <doc:MultiFrameMerging>).
///
/// The settings a delegate gets before the capture say what is planned
/// (``framesMerged`` is then 1); the ``CapturePhoto/resolvedSettings`` of the photo say what
/// was done.
public struct FrameMerging: Sendable, Equatable {
    /// Why a photo is made of fewer frames than its prioritization allows.
    public enum Limitation: String, Sendable, Equatable {
        /// `.balanced` in a scene with enough light: one frame is as good.
        case sceneBright
        /// `.balanced` without the scene monitor running, which judges the light: it starts with
        /// ``CaptureDevice/sceneMonitor``, ``PhotoOutput/isFlashScene``, flash `.auto` or
        /// ``PhotoOutput/setPreparedPhotoSettingsArray(_:)`` of a `.balanced` request.
        case sceneNotMonitored
        /// A RAW photo stays one frame exactly as delivered, and a processed photo developed
        /// from it is of that frame.
        case rawPhoto
        /// A bracket's members are already several exposures: one frame each.
        case bracket
        /// A request that focuses the lens for itself takes one frame: those around it are
        /// focused elsewhere.
        case focusRequest
        /// The stream had fewer recent frames than asked for (it just started or changed for
        /// this request), or frames after the request did not come in time.
        case fewFrames
        /// Neighbours showed another picture (the camera swung away, the scene changed): they
        /// were left out whole.
        case sceneMoved
    }

    /// The request's prioritization.
    public let prioritization: PhotoQualityPrioritization
    /// The frames the request plans to merge, the reference included: 1 for `.speed`.
    public let framesPlanned: Int
    /// The frames that went into the photo, the reference included: neighbours that matched
    /// it nowhere are not counted. 1 until the photo is made.
    public internal(set) var framesMerged: Int
    /// Why fewer frames are planned or merged than the prioritization allows; nil when none is
    /// missing.
    public internal(set) var limitation: Limitation?

    init(_ prioritization: PhotoQualityPrioritization, framesPlanned: Int, limitation: Limitation? = nil) {
        self.prioritization = prioritization
        self.framesPlanned = framesPlanned
        framesMerged = 1
        self.limitation = limitation
    }
}
