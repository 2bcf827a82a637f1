/// The 8-byte header of a TIFF structure (TIFF files, EXIF blocks, DNG).
struct TIFFHeader {
    /// Whether multi-byte values are little-endian ("II").
    let isLittleEndian: Bool
    /// Offset of IFD0 from the start of the structure.
    let firstIFDOffset: Int

    /// Reads the header; nil when `bytes` does not start with "II*\0" or "MM\0*".
    init?(_ bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(8))
        guard head.count == 8 else { return nil }
        if head[0...3] == [0x49, 0x49, 0x2A, 0x00] {
            isLittleEndian = true
        } else if head[0...3] == [0x4D, 0x4D, 0x00, 0x2A] {
            isLittleEndian = false
        } else {
            return nil
        }
        // Eight bytes were read, so the four at 4 are there.
        firstIFDOffset = (try? ByteReader(bytes: head, format: "TIFF").integer(at: 4, count: 4, littleEndian: isLittleEndian, "")) ?? 0
    }

    /// `value` as `count` bytes in the structure's byte order: what ``integer(_:at:count:littleEndian:)`` reads.
    static func bytes(of value: Int, count: Int, littleEndian: Bool) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * (littleEndian ? $0 : count - 1 - $0))) }
    }

    /// An unsigned integer of `count` bytes at `offset`, read through ``ByteReader``: an
    /// offset outside the bytes is an error naming `structure`, never a trap.
    static func integer(_ bytes: [UInt8], at offset: Int, count: Int, littleEndian: Bool,
                        _ structure: @autoclosure () -> String = "a TIFF field") throws(CodecError) -> Int {
        try ByteReader(bytes: bytes, format: "TIFF").integer(at: offset, count: count, littleEndian: littleEndian, structure())
    }

    /// Whether IFD0's tags (``firstIFDIntegers(_:)``) make the file a DNG: it has DNGVersion
    /// (50706), and its IFD0 is then a preview, not the photo.
    static func isDNG(_ ifd0: [Int: Int]) -> Bool { ifd0[50706] != nil }

    /// The tags of IFD0 of a whole TIFF structure, with their first value when it is a
    /// SHORT or LONG; nil when the IFD lies outside the bytes.
    static func firstIFDIntegers(_ bytes: [UInt8]) -> [Int: Int]? {
        guard let header = TIFFHeader(bytes), header.firstIFDOffset >= 8 else { return nil }
        return try? TIFFDirectory(bytes, at: header.firstIFDOffset).entries.reduce(into: [:]) { values, entry in
            switch entry.type {
            case 3, 4: values[entry.tag] = try entry.inlineInteger(in: bytes)
            default: values[entry.tag] = -1  // present, value not an inline integer
            }
        }
    }

    /// Changes the field type of IFD0's entry for `tag` from `old` to `new` in place, for types
    /// of the same size and meaning; false when IFD0 has no such entry of type `old`.
    static func retypeFirstIFDEntry(_ bytes: inout [UInt8], tag: Int, from old: Int, to new: Int) -> Bool {
        guard let header = TIFFHeader(bytes), header.firstIFDOffset >= 8,
              let directory = try? TIFFDirectory(bytes, at: header.firstIFDOffset),
              let entry = directory.entries.first(where: { $0.tag == tag && $0.type == old }) else { return false }
        let (low, high) = (UInt8(new & 0xFF), UInt8(new >> 8))
        (bytes[entry.position + 2], bytes[entry.position + 3]) = header.isLittleEndian ? (low, high) : (high, low)
        return true
    }

    /// The SHORT or LONG values of `tag` in the classic-TIFF directory at `offset`, as the file
    /// stores them (libtiff replaces zero StripByteCounts with its own estimate); nil when the
    /// entry is absent, of another type, or outside the bytes.
    static func integers(_ bytes: [UInt8], directoryAt offset: Int, tag: Int) -> [Int]? {
        guard TIFFHeader(bytes) != nil, offset >= 8,
              let entry = try? TIFFDirectory(bytes, at: offset).entries.first(where: { $0.tag == tag }),
              entry.type == 3 || entry.type == 4 else { return nil }
        return try? entry.integers(in: bytes)
    }

    /// Where the values of `tag` in the classic-TIFF directory at `offset` lie (any type), and
    /// their length in bytes; nil when the entry is absent or outside the bytes.
    static func entry(_ bytes: [UInt8], directoryAt offset: Int, tag: Int) -> (offset: Int, length: Int)? {
        guard TIFFHeader(bytes) != nil, offset >= 8,
              let entry = try? TIFFDirectory(bytes, at: offset).entries.first(where: { $0.tag == tag }),
              let values = try? entry.valueRange(in: bytes) else { return nil }
        return (values.lowerBound, values.count)
    }

    /// Bytes per value of each TIFF field type (1 BYTE ... 13 IFD, 16 LONG8 ... 18 IFD8).
    static let typeSizes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4,
                                                12: 8, 13: 4, 16: 8, 17: 8, 18: 8]

    /// The end (one past the last byte) of the classic-TIFF directory at `offset`, with its
    /// next-IFD link and every value stored outside it; nil when the header or the directory
    /// count cannot be read. A file that ends before this is truncated.
    static func directoryEnd(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard TIFFHeader(bytes) != nil, offset >= 8, let directory = try? TIFFDirectory(bytes, at: offset, wholeEntries: false) else { return nil }
        var end = directory.end
        for entry in directory.entries where entry.length > 4 {
            end = max(end, entry.valuesAt + entry.length)
        }
        return end
    }
}
