import Imaging

/// Errors of the codec layer; each names the failing library call and carries the library's
/// own message, so a log line is enough to find the cause.
public enum CodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A TurboJPEG call failed.
    case turboJPEG(function: String, message: String)
    /// A call of libjpeg's coefficient API (lossless turns) failed.
    case libjpeg(function: String, message: String)
    /// A libheif call failed.
    case heif(function: String, message: String)
    /// A libexif call failed or produced no data.
    case exif(function: String, message: String)
    /// A libtiff call failed.
    case tiff(function: String, message: String)
    /// A LibRaw call failed; `message` is `libraw_strerror` of its code.
    case libRaw(function: String, message: String)
    /// The bytes are of a known format but malformed or truncated.
    case corruptFile(format: String, reason: String)
    /// The bytes are of no format photocap reads, or of a variant it does not handle.
    case unsupportedFormat(reason: String)
    /// The file has no EXIF block where one was asked for.
    case missingEXIF(format: String)
    /// An argument is out of range (a quality, a size, a buffer that is too small).
    case invalidArgument(String)
    /// A lossless JPEG turn was asked where it is not exact; the refusal says which dimension
    /// is not a multiple of the iMCU size.
    case losslessTurnNotExact(LosslessTurnRefusal)
    /// An image operation of the imaging layer failed.
    case imaging(ImagingError)
    /// The file's header declares a picture larger than ``PixelBudget/maximumPixels``; nothing
    /// was allocated for it.
    case pixelBudgetExceeded(format: String, size: PixelSize, limit: Int)
    /// Decoding the picture the file's header declares would take more memory than the process
    /// may use (``PixelBudget/memory``); nothing was allocated for it.
    case memoryExceeded(format: String, size: PixelSize, bytesNeeded: Int, allowance: MemoryAllowance)
    /// The file ends before its data does: `bytes` is its length.
    case truncated(format: String, bytes: Int)
    /// The file could not be read at all.
    case file(FileReadError)

    /// One line for people.
    public var description: String {
        switch self {
        case .turboJPEG(let function, let message), .libjpeg(let function, let message), .heif(let function, let message),
             .exif(let function, let message), .tiff(let function, let message), .libRaw(let function, let message):
            return "\(library) \(function) failed: \(message)"
        case .corruptFile(let format, let reason):
            return "corrupt \(format) file: \(reason)"
        case .unsupportedFormat(let reason):
            return "unsupported image format: \(reason)"
        case .missingEXIF(let format):
            return "the \(format) file has no EXIF block"
        case .invalidArgument(let message):
            return "invalid argument: \(message)"
        case .losslessTurnNotExact(let refusal):
            return refusal.description
        case .imaging(let error):
            return "imaging error: \(error)"
        case .pixelBudgetExceeded(let format, let size, let limit):
            return "the \(format) file declares \(size) pixels (\(PixelBudget.megapixels(size.width, size.height))), "
                + "more than the pixel budget of \(limit) pixels (\(PixelBudget.megapixels(limit, 1))); nothing was decoded"
        case .memoryExceeded(let format, let size, let needed, let allowance):
            return "the \(format) file declares \(size) pixels (\(PixelBudget.megapixels(size.width, size.height))), "
                + PixelBudget.memorySentence(size: size, needed: needed, allowance: allowance) + "; nothing was decoded"
        case .truncated(let format, let bytes):
            return "the \(format) file is truncated at byte \(bytes) (its data goes on past the end)"
        case .file(let error):
            return error.description
        }
    }

    /// The library whose call failed, as its own documentation names it; empty for the errors
    /// that are not a library call's. One sentence then serves every failed call.
    private var library: String {
        switch self {
        case .turboJPEG: "TurboJPEG"
        case .libjpeg: "libjpeg"
        case .heif: "libheif"
        case .exif: "libexif"
        case .tiff: "libtiff"
        case .libRaw: "LibRaw"
        default: ""
        }
    }
}
