import Synchronization

/// A device's dynamic aspect ratio and zoom, shared by every ``CaptureDevice`` value that wraps
/// the same camera (``CaptureDevice/overridingSensorMounting(_:)`` keeps it).
package final class FramingControl: Sendable {
    struct State: Sendable {
        var aspectRatio: AspectRatio?
        var zoomFactor = 1.0
        /// Whether requests may use the driver's crop: set while the camera was not streaming,
        /// where the stream starts anyway. A change on a running stream is cropped in software,
        /// so the stream never stops for it.
        var allowsHardwareCrop = true
        /// The driver refused a crop once: use the software crop from then on.
        var hardwareCropRefused = false
        /// Outputs that need whole frames (``VideoDataOutput/deliversWholeFieldOfView``): while
        /// there are any, the driver does not crop.
        var wholeFrameViewers = 0

        /// Whether a request may have the driver crop its frame.
        var mayCropInDriver: Bool { allowsHardwareCrop && !hardwareCropRefused && wholeFrameViewers == 0 }
    }

    private let state = Mutex(State())

    /// The current values.
    var current: State { state.withLock { $0 } }

    /// Changes the values atomically.
    func update(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }
}
