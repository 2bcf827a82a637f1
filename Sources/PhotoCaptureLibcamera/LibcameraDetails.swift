import Imaging
import PhotoCaptureCore

/// What libcamera reported about a camera.
public struct LibcameraDetails: Sendable, Equatable {
    /// libcamera's id for the camera (`platform/vimc.0 Sensor B`), its ``CaptureDevice/uniqueID``.
    public let id: String
    /// The sensor's model (libcamera's Model property), e.g. `imx708`.
    public let model: String
    /// libcamera's Location property, when reported.
    public let location: CaptureDevice.Location?
    /// libcamera's Rotation property (the mounting, with V4L2_CID_CAMERA_SENSOR_ROTATION's
    /// meaning), when reported: the source of the device's ``CaptureDevice/sensorMounting``.
    public let reportedSensorRotation: Int?
    /// The sensor's full pixel array, when reported.
    public let pixelArray: PixelSize?
    /// Formats the pipeline offers that photocap cannot read (libcamera's names).
    public let unsupportedFormats: [String]
    /// Whether the pipeline offers a raw stream besides the processed one.
    public let hasRawStream: Bool
    /// The libcamera release photocap was built against.
    public let libcameraVersion: String
}

extension CaptureDevice {
    /// Facts libcamera reported; nil for cameras of other backends.
    public var libcameraDetails: LibcameraDetails? { backendDetails as? LibcameraDetails }

}
