/// The system calls and ioctls of the V4L2 layer, named as in the kernel's documentation, so
/// errors say which call failed and code branches on a value rather than on text.
public enum V4L2Call: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case open
    case close
    case mmap
    case poll
    case queryCapabilities = "VIDIOC_QUERYCAP"
    case enumerateInputs = "VIDIOC_ENUMINPUT"
    case getInput = "VIDIOC_G_INPUT"
    case setInput = "VIDIOC_S_INPUT"
    case enumerateFormats = "VIDIOC_ENUM_FMT"
    case enumerateFrameSizes = "VIDIOC_ENUM_FRAMESIZES"
    case enumerateFrameIntervals = "VIDIOC_ENUM_FRAMEINTERVALS"
    case getFormat = "VIDIOC_G_FMT"
    case setFormat = "VIDIOC_S_FMT"
    case getStreamParameters = "VIDIOC_G_PARM"
    case queryExtendedControl = "VIDIOC_QUERY_EXT_CTRL"
    case getExtendedControls = "VIDIOC_G_EXT_CTRLS"
    case setExtendedControls = "VIDIOC_S_EXT_CTRLS"
    case getSelection = "VIDIOC_G_SELECTION"
    case setSelection = "VIDIOC_S_SELECTION"
    case requestBuffers = "VIDIOC_REQBUFS"
    case queryBuffer = "VIDIOC_QUERYBUF"
    case queueBuffer = "VIDIOC_QBUF"
    case dequeueBuffer = "VIDIOC_DQBUF"
    case streamOn = "VIDIOC_STREAMON"
    case streamOff = "VIDIOC_STREAMOFF"

    /// The kernel's name, e.g. `VIDIOC_DQBUF`.
    public var description: String { rawValue }
}
