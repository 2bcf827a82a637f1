import Imaging

/// A V4L2 four-character code such as `YUYV`, stored as the kernel stores it (little-endian).
package struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as `v4l2_fourcc(a, b, c, d)` makes it.
    package let rawValue: UInt32

    /// Wraps a raw code.
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The code for up to four ASCII characters (shorter codes are padded with spaces).
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard (1...4).contains(bytes.count), bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        let padded = bytes + Array(repeating: 0x20, count: 4 - bytes.count)
        rawValue = padded.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The four characters, trailing spaces removed.
    package var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (8 * $0)) }
        let printable = bytes.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }
        return String(decoding: printable, as: UTF8.self).trimmingTrailingSpaces
    }
}

extension FramePixelFormat {
    /// The frame format for a V4L2 code, nil for formats the pipeline cannot read.
    package init?(fourCC: FourCC) {
        guard let format = FramePixelFormat.allCases.first(where: { FourCC($0.fourCC) == fourCC }) else { return nil }
        self = format
    }

    /// The V4L2 code of this format.
    package var v4l2FourCC: FourCC { FourCC(fourCC)! }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    /// A string from a fixed-size, NUL-terminated C char array imported as a tuple.
    init<Tuple>(cTuple: Tuple) {
        self = withUnsafeBytes(of: cTuple) { bytes in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
