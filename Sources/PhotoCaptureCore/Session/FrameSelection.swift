/// The rule that picked a photo's frame from the live stream.
public enum FrameSelection: String, Sendable, Equatable {
    /// Zero shutter lag: the frame whose exposure was under way at the moment of the request.
    case zeroShutterLag
    /// The first frame whose exposure started after the request: zero shutter lag was off, or
    /// no frame was under way then (the stream had just started, or that frame was dropped).
    case firstFrameAfterRequest
    /// The first frame after a change the photo needed (its format, size or hardware crop, or a
    /// bracket member's exposure), which restarted or re-exposed the stream.
    case firstFrameAfterChange
}
