import PhotoCapture

extension CaptureDevice {
    /// Where the camera's reported sensor rotation came from, as `devices --json` and
    /// `shoot --json` say it: `libcamera Rotation`, `V4L2_CID_CAMERA_SENSOR_ROTATION` (on the
    /// capture node), or that control on the pipeline's sensor subdevice, named; nil when
    /// nothing reported one (0°).
    var sensorRotationSource: String? {
        if libcameraDetails?.reportedSensorRotation != nil { return "libcamera Rotation" }
        guard let details = v4l2Details, details.reportedSensorRotation != nil else { return nil }
        guard let subdevice = details.sensorSubdevice else { return "V4L2_CID_CAMERA_SENSOR_ROTATION" }
        return "V4L2_CID_CAMERA_SENSOR_ROTATION on \(subdevice)" + (details.sensorName.map { " (\($0))" } ?? "")
    }
}
