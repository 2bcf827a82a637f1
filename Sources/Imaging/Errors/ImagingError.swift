/// Errors of the imaging layer; each names the size, format or libyuv call that failed.
public enum ImagingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A width or height was zero or negative.
    case invalidSize(PixelSize)
    /// A row stride shorter than one row of pixels.
    case strideTooSmall(bytesPerRow: Int, format: FramePixelFormat, width: Int)
    /// The frame has fewer bytes than its format and size need.
    case frameTooSmall(expected: Int, actual: Int, format: FramePixelFormat, size: PixelSize)
    /// A crop rectangle outside the frame.
    case cropOutsideFrame(PixelRect, frame: PixelSize)
    /// A libyuv function returned an error code.
    case libyuvFailed(function: String, code: Int32)
    /// The frame is compressed (MJPEG) and must be decoded before conversion.
    case compressedFrame(FramePixelFormat)
    /// The operation needs a Bayer (RAW) frame.
    case notBayer(FramePixelFormat)
    /// A picture declares more pixels than ``PixelBudget/maximumPixels`` allows.
    case pixelBudgetExceeded(size: PixelSize, limit: Int)
    /// Decoding the declared picture would take more memory than the process may use
    /// (``PixelBudget/memory``); nothing was allocated.
    case memoryExceeded(size: PixelSize, bytesNeeded: Int, allowance: MemoryAllowance)
    /// A size computed from a width, height and layout does not fit in memory addresses.
    case sizeOverflow(PixelSize, format: FramePixelFormat)

    /// One line for people.
    public var description: String {
        switch self {
        case .invalidSize(let size):
            return "invalid image size \(size)"
        case .strideTooSmall(let stride, let format, let width):
            return "row stride \(stride) is too small for \(format) at width \(width)"
        case .frameTooSmall(let expected, let actual, let format, let size):
            return "a \(size) \(format) frame needs \(expected) bytes, got \(actual)"
        case .cropOutsideFrame(let rect, let frame):
            return "crop rectangle \(rect) lies outside the \(frame) frame"
        case .compressedFrame(let format):
            return "\(format) frames are compressed; decode them before conversion"
        case .notBayer(let format):
            return "\(format) is not a Bayer (RAW) format"
        case .pixelBudgetExceeded(let size, let limit):
            return "the picture declares \(size) pixels (\(PixelBudget.megapixels(size.width, size.height))), "
                + "more than the pixel budget of \(limit) pixels (\(PixelBudget.megapixels(limit, 1)))"
        case .memoryExceeded(let size, let needed, let allowance):
            return "the picture declares \(size) pixels (\(PixelBudget.megapixels(size.width, size.height))), "
                + PixelBudget.memorySentence(size: size, needed: needed, allowance: allowance)
        case .sizeOverflow(let size, let format):
            return "a \(size) \(format) frame is too large to address (its byte count overflows)"
        case .libyuvFailed(let function, let code):
            return "libyuv \(function) failed with code \(code)"
        }
    }
}
