import Codecs
import Imaging

/// Why ``ImageDecoder`` could not decode a picture; names the file and the cause.
public struct ImageDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Equatable {
        /// The file could not be read (missing, a folder, unreadable).
        case unreadable(FileReadError)
        /// The bytes are of no format the decoder reads (or of a variant it does not handle).
        case unsupportedFormat(reason: String)
        /// The file is of a format the decoder reads but broken: truncated or malformed.
        case damaged(CodecError)
        /// The file declares a picture of more pixels than the limit; nothing was allocated.
        case tooManyPixels(size: PixelSize, limit: Int)
        /// Decoding the declared picture would take more memory than the process may use
        /// (``PixelBudget/memory``); nothing was allocated.
        case tooLittleMemory(size: PixelSize, bytesNeeded: Int, allowance: MemoryAllowance)
    }

    /// What went wrong.
    public let code: Code
    /// The file's path, or the name given for bytes.
    public let name: String

    /// An error about `name`.
    public init(_ code: Code, name: String) {
        (self.code, self.name) = (code, name)
    }

    /// A codec failure sorted into what it means for the caller.
    init(codecError: CodecError, name: String) {
        switch codecError {
        case .unsupportedFormat(let reason):
            self.init(.unsupportedFormat(reason: reason), name: name)
        case .pixelBudgetExceeded(_, let size, let limit):
            self.init(.tooManyPixels(size: size, limit: limit), name: name)
        case .memoryExceeded(_, let size, let needed, let allowance):
            self.init(.tooLittleMemory(size: size, bytesNeeded: needed, allowance: allowance), name: name)
        case .file(let error):
            self.init(.unreadable(error), name: name)
        default:
            self.init(.damaged(codecError), name: name)
        }
    }

    /// One line for people: the file, then the cause.
    public var description: String {
        switch code {
        case .unreadable(let error): "\(error)"
        case .unsupportedFormat(let reason): "\(name): cannot decode: \(reason) (JPEG, PNG, HEIC and TIFF are read)"
        case .damaged(let error): "\(name): damaged: \(error)"
        case .tooManyPixels(let size, let limit):
            "\(name): declares \(size) pixels (\(PixelBudget.megapixels(size.width, size.height))), more than the limit of "
                + "\(limit) pixels (\(PixelBudget.megapixels(limit, 1))); nothing was decoded"
        case .tooLittleMemory(let size, let needed, let allowance):
            "\(name): declares \(size) pixels (\(PixelBudget.megapixels(size.width, size.height))), "
                + PixelBudget.memorySentence(size: size, needed: needed, allowance: allowance) + "; nothing was decoded"
        }
    }
}
