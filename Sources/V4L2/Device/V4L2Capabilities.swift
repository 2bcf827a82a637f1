import CV4L2
import Foundation
import Imaging

/// What VIDIOC_QUERYCAP reports for one device node.
public struct V4L2Capabilities: Sendable, Equatable {
    /// The driver's name, e.g. `vivid` or `uvcvideo`.
    public let driver: String
    /// The device's name for people, e.g. `vivid` or `HD Pro Webcam C920`.
    public let card: String
    /// Where the device is attached, e.g. `platform:vivid-000` or `usb-0000:00:14.0-1`.
    public let busInfo: String
    /// The driver version as `major.minor.patch`.
    public let version: String
    /// The capability bits of this node (`device_caps`).
    public let deviceCapabilities: UInt32

    init(_ raw: v4l2_capability) {
        driver = String(cTuple: raw.driver)
        card = String(cTuple: raw.card)
        busInfo = String(cTuple: raw.bus_info)
        version = "\(raw.version >> 16).\((raw.version >> 8) & 0xFF).\(raw.version & 0xFF)"
        // Old drivers leave device_caps empty and report per-node bits in capabilities.
        deviceCapabilities = raw.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? raw.device_caps : raw.capabilities
    }

    /// Whether the node captures single-planar video.
    public var canCaptureVideo: Bool { deviceCapabilities & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 }
    /// Whether the node supports mmap streaming I/O.
    public var canStream: Bool { deviceCapabilities & UInt32(V4L2_CAP_STREAMING) != 0 }
}

/// A video input of a device (VIDIOC_ENUMINPUT).
public struct V4L2Input: Sendable, Equatable {
    /// The input's index.
    public let index: Int
    /// Its name, e.g. `Camera 0`.
    public let name: String
    /// Whether it is a camera (as opposed to a TV tuner or HDMI input).
    public let isCamera: Bool
    /// The frames arrive mirrored left-right and the driver does not correct it (V4L2_IN_ST_HFLIP).
    public let isFlippedHorizontally: Bool
    /// The frames arrive upside down and the driver does not correct it (V4L2_IN_ST_VFLIP).
    public let isFlippedVertically: Bool
    /// No signal or no power (V4L2_IN_ST_NO_SIGNAL / NO_POWER).
    public let hasNoSignal: Bool

    init(_ raw: v4l2_input) {
        index = Int(raw.index)
        name = String(cTuple: raw.name)
        isCamera = raw.type == UInt32(V4L2_INPUT_TYPE_CAMERA)
        isFlippedHorizontally = raw.status & UInt32(V4L2_IN_ST_HFLIP) != 0
        isFlippedVertically = raw.status & UInt32(V4L2_IN_ST_VFLIP) != 0
        hasNoSignal = raw.status & UInt32(V4L2_IN_ST_NO_SIGNAL | V4L2_IN_ST_NO_POWER) != 0
    }
}

/// One entry of VIDIOC_ENUM_FMT.
public struct V4L2FormatDescription: Sendable, Equatable {
    /// The pixel format code.
    public let fourCC: FourCC
    /// The driver's description, e.g. `YUYV 4:2:2`.
    public let description: String
    /// Whether frames are compressed (MJPEG, H.264...).
    public let isCompressed: Bool
    /// Whether the driver can convert to the Y'CbCr encoding and quantisation the app asks for
    /// (V4L2_FMT_FLAG_CSC_YCBCR_ENC / CSC_QUANTIZATION).
    public let canSetColorSpace: Bool
}

/// The frame sizes a format offers (VIDIOC_ENUM_FRAMESIZES).
public enum V4L2FrameSizes: Sendable, Equatable {
    /// A list of sizes.
    case discrete([PixelSize])
    /// Any size from `minimum` to `maximum` in steps (continuous when the steps are 1).
    case stepwise(minimum: PixelSize, maximum: PixelSize, step: PixelSize)
}

/// A frame interval, as a fraction of a second.
public struct V4L2FrameInterval: Sendable, Hashable, CustomStringConvertible {
    /// Numerator (seconds).
    public let numerator: Int
    /// Denominator.
    public let denominator: Int

    /// Frames per second.
    public var framesPerSecond: Double { denominator == 0 || numerator == 0 ? 0 : Double(denominator) / Double(numerator) }
    /// The interval in nanoseconds (0 when unknown).
    public var nanoseconds: UInt64 {
        denominator == 0 ? 0 : UInt64(numerator) * 1_000_000_000 / UInt64(denominator)
    }
    /// `30 fps` or `29.97 fps`.
    public var description: String {
        let fps = framesPerSecond
        return fps == fps.rounded() ? "\(Int(fps)) fps" : String(format: "%.2f fps", fps)
    }
}

/// The format the driver actually set (VIDIOC_G_FMT / S_FMT).
public struct V4L2ActiveFormat: Sendable, Equatable {
    /// The pixel format.
    public let fourCC: FourCC
    /// The frame size.
    public let size: PixelSize
    /// Bytes per row of the first plane.
    public let bytesPerLine: Int
    /// Bytes in one frame buffer.
    public let imageSize: Int
    /// Whether Y'CbCr samples are full range (quantization V4L2_QUANTIZATION_FULL_RANGE).
    public let isFullRange: Bool
    /// Whether Y'CbCr uses the BT.709 matrix rather than BT.601.
    public let usesBT709Matrix: Bool
}
