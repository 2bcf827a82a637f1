import CV4L2
import FoundationEssentials
import Imaging

/// What VIDIOC_QUERYCAP reports for one device node.
package struct V4L2Capabilities: Sendable, Equatable {
    /// The driver's name, e.g. `vivid` or `uvcvideo`.
    package let driver: String
    /// The device's name for people, e.g. `vivid` or `HD Pro Webcam C920`.
    package let card: String
    /// Where the device is attached, e.g. `platform:vivid-000` or `usb-0000:00:14.0-1`.
    package let busInfo: String
    /// The driver version as `major.minor.patch`.
    package let version: String
    /// The capability bits of this node (`device_caps`).
    package let deviceCapabilities: UInt32

    init(_ raw: v4l2_capability) {
        driver = String(cTuple: raw.driver)
        card = String(cTuple: raw.card)
        busInfo = String(cTuple: raw.bus_info)
        version = "\(raw.version >> 16).\((raw.version >> 8) & 0xFF).\(raw.version & 0xFF)"
        // Old drivers leave device_caps empty and report per-node bits in capabilities.
        deviceCapabilities = raw.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? raw.device_caps : raw.capabilities
    }

    /// Whether the node captures single-planar video.
    package var canCaptureVideo: Bool { deviceCapabilities & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 }
    /// Whether the node supports mmap streaming I/O.
    package var canStream: Bool { deviceCapabilities & UInt32(V4L2_CAP_STREAMING) != 0 }
    /// Whether the node is one stage of a media-controller pipeline (V4L2_CAP_IO_MC), whose
    /// formats are configured on its subdevices first (libcamera's job), not on the node alone.
    package var isMediaControllerCentric: Bool { deviceCapabilities & UInt32(V4L2_CAP_IO_MC) != 0 }
}

/// A video input of a device (VIDIOC_ENUMINPUT).
package struct V4L2Input: Sendable, Equatable {
    /// The input's index.
    package let index: Int
    /// Its name, e.g. `Camera 0`.
    package let name: String
    /// Whether it is a camera (as opposed to a TV tuner or HDMI input).
    package let isCamera: Bool
    /// The frames arrive mirrored left-right and the driver does not correct it (V4L2_IN_ST_HFLIP).
    package let isFlippedHorizontally: Bool
    /// The frames arrive upside down and the driver does not correct it (V4L2_IN_ST_VFLIP).
    package let isFlippedVertically: Bool
    /// No signal or no power (V4L2_IN_ST_NO_SIGNAL / NO_POWER).
    package let hasNoSignal: Bool

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
package struct V4L2FormatDescription: Sendable, Equatable {
    /// The pixel format code.
    package let fourCC: FourCC
    /// The driver's description, e.g. `YUYV 4:2:2`.
    package let description: String
    /// Whether frames are compressed (MJPEG, H.264...).
    package let isCompressed: Bool
    /// Whether the driver can convert to the Y'CbCr encoding and quantisation the app asks for
    /// (V4L2_FMT_FLAG_CSC_YCBCR_ENC / CSC_QUANTIZATION).
    package let canSetColorSpace: Bool
}

/// The frame sizes a format offers (VIDIOC_ENUM_FRAMESIZES).
package enum V4L2FrameSizes: Sendable, Equatable {
    /// A list of sizes.
    case discrete([PixelSize])
    /// Any size from `minimum` to `maximum` in steps (continuous when the steps are 1).
    case stepwise(minimum: PixelSize, maximum: PixelSize, step: PixelSize)
}

/// A frame interval, as a fraction of a second.
package struct V4L2FrameInterval: Sendable, Hashable, CustomStringConvertible {
    /// Numerator (seconds).
    package let numerator: Int
    /// Denominator.
    package let denominator: Int

    /// Frames per second.
    package var framesPerSecond: Double { denominator == 0 || numerator == 0 ? 0 : Double(denominator) / Double(numerator) }
    /// The interval in nanoseconds (0 when unknown).
    package var nanoseconds: UInt64 {
        denominator == 0 ? 0 : UInt64(numerator) * 1_000_000_000 / UInt64(denominator)
    }
    /// `30 fps` or `29.97 fps`.
    package var description: String {
        let fps = framesPerSecond
        return fps == fps.rounded() ? "\(Int(fps)) fps" : String(printf: "%.2f fps", fps)
    }
}

/// The format the driver actually set (VIDIOC_G_FMT / S_FMT).
package struct V4L2ActiveFormat: Sendable, Equatable {
    /// The pixel format.
    package let fourCC: FourCC
    /// The frame size.
    package let size: PixelSize
    /// Bytes per row of the first plane.
    package let bytesPerLine: Int
    /// Bytes in one frame buffer.
    package let imageSize: Int
    /// Whether Y'CbCr samples are full range (quantization V4L2_QUANTIZATION_FULL_RANGE).
    package let isFullRange: Bool
    /// Whether Y'CbCr uses the BT.709 matrix rather than BT.601.
    package let usesBT709Matrix: Bool
}
