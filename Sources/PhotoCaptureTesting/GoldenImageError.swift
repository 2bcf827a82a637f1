import PhotoCapture

/// Why a picture could not be read, compared or written, or why a check failed; names the file
/// and the cause. Its ``description`` is the sentence a failing test shows.
public struct GoldenImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Equatable {
        /// The file does not exist or cannot be read; the file layer's error says why, typed
        /// so that a caller can match the cause (``GoldenImageError/underlyingError`` returns it).
        case unreadable(FileReadError)
        /// The file is of a format read here but damaged, or of no format read here.
        case undecodable(CodecError)
        /// A golden, displayed picture or difference image could not be written.
        case unwritable(reason: String)
        /// A picture to be written could not be encoded as PNG; the codec error says why.
        case unencodable(CodecError)
        /// Writing a picture's file failed; photocap's error names the call.
        case writeFailed(ImageFileError)
        /// Goldens are recorded as PNG; the golden's path does not end in `.png`.
        case recordingNeedsPNG
        /// ``GoldenImage/verify(fileAt:)``: the picture did not match its golden (it
        /// differed, or the golden was recorded instead); the result says how and where the
        /// failure images are.
        case mismatch(GoldenResult)
        /// ``OrientationConsistency/verify(fileAt:)``: the file's orientation metadata disagrees
        /// with itself, one sentence per problem.
        case inconsistentOrientation(problems: [String])
    }

    /// The file concerned.
    public let path: String
    /// What went wrong.
    public let code: Code

    /// An error about `path`.
    public init(_ code: Code, path: String) {
        self.code = code
        self.path = path
    }

    /// The error of the layer below that caused this one, typed: the file layer's, the codec
    /// layer's or photocap's; nil when the cause is this layer's own.
    public var underlyingError: (any Error & Sendable)? {
        switch code {
        case .unreadable(let error): return error
        case .undecodable(let error), .unencodable(let error): return error
        case .writeFailed(let error): return error
        case .unwritable, .recordingNeedsPNG, .mismatch, .inconsistentOrientation: return nil
        }
    }

    /// One line for people: the file, then the cause.
    public var description: String {
        switch code {
        case .unreadable(let error): "\(path): \(error.reason)"
        case .undecodable(let error): "\(path): \(error)"
        case .unwritable(let reason): "cannot write \(path): \(reason)"
        case .unencodable(let error): "cannot write \(path): \(error)"
        case .writeFailed(let error): "cannot write \(path): \(error)"
        case .recordingNeedsPNG: "\(path): goldens are recorded as PNG; name the golden NAME.png"
        case .mismatch(let result): result.description
        case .inconsistentOrientation(let problems): "\(path): orientation metadata disagrees: \(problems.joined(separator: "; "))"
        }
    }
}
