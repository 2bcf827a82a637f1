import Codecs
import Imaging

/// Why a recorded clip (YUV4MPEG2, `.y4m`) cannot be played as a camera.
public enum ClipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with the `YUV4MPEG2 ` signature.
    case notYUV4MPEG2
    /// The stream header has no line end within `limit` bytes.
    case headerUnterminated(limit: Int)
    /// The stream header lacks a required parameter: `W` (width), `H` (height) or `F` (frame rate).
    case missingParameter(Character)
    /// A header parameter's value is malformed or out of range (a zero or huge side, a frame
    /// rate of `0:1`).
    case invalidParameter(Character, value: String)
    /// The chroma layout is not 4:2:0 (`C420`, `C420jpeg`, `C420paldv`, `C420mpeg2`); the
    /// header's name for it, e.g. `422` or `444`.
    case unsupportedChroma(String)
    /// 4:2:0 frames with an odd side are not played.
    case oddSize(PixelSize)
    /// The frame size is beyond what photocap processes, or its byte count overflows.
    case imaging(ImagingError)
    /// The clip holds no frame.
    case noFrames
    /// Frame `index` (from 0) does not start with a `FRAME` line.
    case invalidFrameHeader(index: Int)
    /// Frame `index` (from 0) ends before its planes do: `expected` bytes, `actual` present.
    case truncatedFrame(index: Int, expected: Int, actual: Int)
    /// The path names no regular file that can be read: a FIFO, a directory, a missing file.
    case unreadable(FileReadError)
    /// A system call on the file failed with `errno`.
    case system(call: String, errno: Int32)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .notYUV4MPEG2: return "not a YUV4MPEG2 clip (no 'YUV4MPEG2 ' signature)"
        case .headerUnterminated(let limit): return "the YUV4MPEG2 header has no line end within \(limit) bytes"
        case .missingParameter(let tag): return "the YUV4MPEG2 header has no \(tag) parameter"
        case .invalidParameter(let tag, let value): return "the YUV4MPEG2 header's \(tag) parameter '\(value)' is invalid"
        case .unsupportedChroma(let name):
            return "chroma \(name) is not played; 4:2:0 only (C420, C420jpeg, C420paldv, C420mpeg2)"
        case .oddSize(let size): return "a 4:2:0 clip of \(size) has an odd side"
        case .imaging(let error): return "\(error)"
        case .noFrames: return "the clip holds no frame"
        case .invalidFrameHeader(let index): return "frame \(index) does not start with a FRAME line"
        case .truncatedFrame(let index, let expected, let actual):
            return "frame \(index) is truncated: \(actual) of \(expected) bytes"
        case .unreadable(let error): return error.reason
        case .system(let call, let errno): return "\(call) failed: errno \(errno)"
        }
    }
}
