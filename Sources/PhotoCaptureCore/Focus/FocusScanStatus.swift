/// Where a camera's one-shot autofocus scan is, as its backend reads it (a V4L2 camera from the
/// bits of V4L2_CID_AUTO_FOCUS_STATUS).
package enum FocusScanStatus: Sendable, Equatable {
    /// No scan has run, or the camera reports none.
    case idle
    /// A scan is under way.
    case busy
    /// The last scan found focus.
    case reached
    /// The last scan gave up.
    case failed
}
