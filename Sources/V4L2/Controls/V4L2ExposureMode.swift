/// The values of `V4L2_CID_EXPOSURE_AUTO` (`enum v4l2_exposure_auto_type` in
/// linux/v4l2-controls.h).
///
/// Only ``manual`` lets `V4L2_CID_EXPOSURE_ABSOLUTE` take effect; UVC cameras typically offer
/// ``manual`` and ``aperturePriority`` (their "auto").
package enum V4L2ExposureMode: Int64, Sendable, CaseIterable {
    /// Automatic exposure time and iris (`V4L2_EXPOSURE_AUTO`).
    case auto = 0
    /// Manual exposure time and iris (`V4L2_EXPOSURE_MANUAL`).
    case manual = 1
    /// Manual exposure time, automatic iris (`V4L2_EXPOSURE_SHUTTER_PRIORITY`).
    case shutterPriority = 2
    /// Automatic exposure time, manual iris (`V4L2_EXPOSURE_APERTURE_PRIORITY`).
    case aperturePriority = 3
}
