extension String {
    /// The string with everything a terminal could act on written out as an escape: C0 and C1
    /// control characters (ESC, BEL, CR, LF, CSI…) and DEL as `\u{1B}`, and the bidirectional
    /// overrides that reorder what is displayed. Text taken from a file (HEIF brands, EXIF
    /// strings, XMP) goes through this before it reaches a terminal or a log, so a file cannot
    /// move the cursor, retitle the window or forge further lines.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isTerminalControl) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            if scalar.isTerminalControl {
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

}

extension Unicode.Scalar {
    /// Whether a terminal could act on this character: a C0 or C1 control, DEL, or a
    /// bidirectional override.
    package var isTerminalControl: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
