/// Exposure controls set per frame, as libcamera's per-frame controls are: a change is
/// scheduled for the frames whose exposure starts after an instant, reaches every such frame
/// and no earlier one. A bracket on them takes its members on consecutive frames, with each
/// change scheduled before the previous member's frame is exposed, instead of setting a member
/// once the previous one's frame is in hand and letting frames pass until it has settled.
///
/// V4L2 controls are not such controls: a driver applies a write on its own schedule.
package protocol PerFrameExposureControls: ExposureControls {
    /// Sets `target` for the frames whose exposure starts after `instant`, or after the
    /// earliest instant the camera can still reach (its control delay from now) when that is
    /// later: the change and the instant it took.
    func apply(_ target: ExposureTarget, forFramesStartingAfter instant: UInt64) throws(PhotoCaptureError) -> ScheduledExposure

    /// ``ExposureControls/restore()`` for the frames whose exposure starts after `instant` (or
    /// the earliest instant the camera can reach); returns the instant it took.
    func restore(forFramesStartingAfter instant: UInt64) throws(PhotoCaptureError) -> UInt64

    /// Whether the frame whose exposure started at `start` was exposed with `change`: neither
    /// an earlier value nor a later change (another member, a restore). Throws
    /// ``BracketProblem/interrupted`` once the controls were interrupted.
    func exposed(frameStartingAt start: UInt64, with change: ScheduledExposure) throws(PhotoCaptureError) -> Bool
}

/// A change scheduled on ``PerFrameExposureControls``.
package struct ScheduledExposure: Sendable, Equatable {
    /// The values the camera reports for the change.
    let reading: ExposureReading
    /// Frames whose exposure starts after this instant (monotonic nanoseconds) see it.
    let effectiveAfter: UInt64
    /// Tells this change from every other on the same controls.
    let serial: UInt64
}
