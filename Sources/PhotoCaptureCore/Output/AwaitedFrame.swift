/// Which frame a request waited for when it timed out, named in
/// ``PhotoCaptureError/Code/frameTimeout(milliseconds:device:frame:)``: whether the camera
/// stalled or the request asked for a frame that could not have come yet shows in it.
public enum AwaitedFrame: Sendable, Hashable, CustomStringConvertible {
    /// The frame whose exposure was under way at the request (zero shutter lag).
    case underWayAtRequest
    /// The first frame whose exposure began after the request: zero shutter lag off, or a
    /// bracket member, focus, format or framing change that needs a frame exposed after it.
    case startedAfterRequest
    /// The camera's next frame, whatever it is (the stream's own pull).
    case next

    /// In words, as the error's message puts it.
    public var description: String {
        switch self {
        case .underWayAtRequest: return "the frame under way at the request (zero shutter lag)"
        case .startedAfterRequest: return "the first frame begun after the request"
        case .next: return "the camera's next frame"
        }
    }
}
