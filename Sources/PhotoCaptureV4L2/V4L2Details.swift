import Imaging
import PhotoCaptureCore

/// What a V4L2 driver reported about a camera.
public struct V4L2Details: Sendable, Equatable {
    /// The device node, e.g. `/dev/video0`.
    public let path: String
    /// The driver, e.g. `uvcvideo` or `vivid`.
    public let driver: String
    /// The bus the camera hangs off, e.g. `usb-0000:00:14.0-1`.
    public let busInfo: String
    /// The selected input's name.
    public let inputName: String?
    /// V4L2_CID_CAMERA_SENSOR_ROTATION, when the driver has it (counter-clockwise degrees): on
    /// the capture node, or else on the sensor subdevice its pipeline starts at
    /// (``sensorSubdevice``).
    public let reportedSensorRotation: Int?
    /// The sensor subdevice of the node's media-controller pipeline that the rotation and
    /// location were read from, e.g. `/dev/v4l-subdev2`, found in the media device's topology
    /// over the pipeline's enabled links; nil when the capture node reported them itself or no
    /// subdevice did.
    public let sensorSubdevice: String?
    /// That sensor's entity name, e.g. `imx219 10-0010`.
    public let sensorName: String?
    /// V4L2_CID_CAMERA_ORIENTATION, when the driver has it.
    public let location: CaptureDevice.Location?
    /// The input reports left-right mirrored frames (V4L2_IN_ST_HFLIP).
    public let isFlippedHorizontally: Bool
    /// The input reports upside-down frames (V4L2_IN_ST_VFLIP).
    public let isFlippedVertically: Bool
    /// Formats the driver offers that photocap cannot read (four-character codes).
    public let unsupportedFormats: [String]
    /// Frame rates of the default still format at its largest size, fastest first.
    public let frameRates: [Double]
    /// The largest rectangle the driver can crop on the selected input
    /// (V4L2_SEL_TGT_CROP_BOUNDS), nil when it cannot crop it: the hardware crop of
    /// ``PhotoFraming`` is offered only when it is there.
    public let cropBounds: PixelRect?
    /// The node is one stage of a media-controller pipeline (V4L2_CAP_IO_MC): streaming it
    /// needs the pipeline configured first, which libcamera does for its camera.
    public let isPipelineNode: Bool
}

extension CaptureDevice {
    /// Facts a V4L2 driver reported; nil for the synthetic, frame-file and clip cameras.
    public var v4l2Details: V4L2Details? { backendDetails as? V4L2Details }
}
