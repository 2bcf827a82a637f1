/// The faults a camera stream recovered from, counted once for every layer that reports them:
/// the V4L2 stream's per-wait report and its lifetime statistics, the capture layer's
/// `FrameDelivery` and the live stream's tally of faults no photo has reported yet.
package struct StreamFaults: Sendable, Equatable {
    /// Frames that began before the request they were read for and were skipped.
    package var staleFrames = 0
    /// Frames the driver flagged as corrupt (V4L2_BUF_FLAG_ERROR) or delivered short, skipped.
    package var corruptFrames = 0
    /// Frames the driver dropped (gaps in the sequence numbers).
    package var droppedFrames = 0
    /// Stream restarts after a failed start or a fatal streaming error.
    package var restarts = 0

    /// None.
    package init() {}

    /// Adds `other`'s faults of the stream itself — corrupt and dropped frames, restarts — which
    /// a later report carries on. Stale frames are left out: they belong to the one request that
    /// skipped them.
    package mutating func carry(_ other: StreamFaults) {
        corruptFrames += other.corruptFrames
        droppedFrames += other.droppedFrames
        restarts += other.restarts
    }
}
