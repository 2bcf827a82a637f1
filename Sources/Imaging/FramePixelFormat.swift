/// The layout of the bytes of a camera frame, named after its V4L2 pixel format.
public enum FramePixelFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Packed 4:2:2, Y0 U Y1 V (`YUYV`).
    case yuyv
    /// Packed 4:2:2, U Y0 V Y1 (`UYVY`).
    case uyvy
    /// Semi-planar 4:2:0, a Y plane then interleaved UV (`NV12`).
    case nv12
    /// Semi-planar 4:2:0, a Y plane then interleaved VU (`NV21`).
    case nv21
    /// Planar 4:2:0, Y then U then V (`YU12`, also called I420).
    case i420
    /// Planar 4:2:0, Y then V then U (`YV12`).
    case yv12
    /// Packed RGB, 8 bits each, R G B in memory (`RGB3`).
    case rgb24
    /// Packed RGB, 8 bits each, B G R in memory (`BGR3`).
    case bgr24
    /// 8-bit luma only (`GREY`).
    case grey

    /// The four-character code V4L2 uses for this format.
    public var fourCC: String {
        switch self {
        case .yuyv: return "YUYV"
        case .uyvy: return "UYVY"
        case .nv12: return "NV12"
        case .nv21: return "NV21"
        case .i420: return "YU12"
        case .yv12: return "YV12"
        case .rgb24: return "RGB3"
        case .bgr24: return "BGR3"
        case .grey: return "GREY"
        }
    }

    /// The format for a V4L2 four-character code or a lowercase name (`yuyv`, `YU12`, `i420`...).
    public init?(name: String) {
        let lowered = name.lowercased()
        if let format = FramePixelFormat(rawValue: lowered) {
            self = format
        } else if let format = FramePixelFormat.allCases.first(where: { $0.fourCC.lowercased() == lowered }) {
            self = format
        } else {
            return nil
        }
    }

    /// Whether the samples are Y'CbCr (as opposed to RGB or luma only).
    public var isYUV: Bool {
        switch self {
        case .yuyv, .uyvy, .nv12, .nv21, .i420, .yv12: return true
        case .rgb24, .bgr24, .grey: return false
        }
    }

    /// Whether the format subsamples chroma vertically, which makes odd crop rows impossible.
    public var hasVerticalSubsampling: Bool {
        switch self {
        case .nv12, .nv21, .i420, .yv12: return true
        default: return false
        }
    }

    /// Bytes in one row of the first plane with no padding.
    public func minimumBytesPerRow(width: Int) -> Int {
        switch self {
        case .yuyv, .uyvy: return ((width + 1) / 2) * 4
        case .nv12, .nv21, .i420, .yv12, .grey: return width
        case .rgb24, .bgr24: return width * 3
        }
    }

    /// Bytes in a whole frame of `size` whose first plane has `bytesPerRow` bytes per row.
    ///
    /// Chroma planes follow the V4L2 single-plane conventions: NV12/NV21 chroma rows have the
    /// luma stride, I420/YV12 chroma rows half of it.
    public func frameByteCount(size: PixelSize, bytesPerRow: Int) -> Int {
        let chromaRows = (size.height + 1) / 2
        switch self {
        case .yuyv, .uyvy, .rgb24, .bgr24, .grey:
            return bytesPerRow * size.height
        case .nv12, .nv21:
            return bytesPerRow * (size.height + chromaRows)
        case .i420, .yv12:
            return bytesPerRow * size.height + 2 * ((bytesPerRow + 1) / 2) * chromaRows
        }
    }

    /// The V4L2 code, for messages.
    public var description: String { fourCC }
}
