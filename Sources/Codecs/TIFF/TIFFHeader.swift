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
        firstIFDOffset = TIFFHeader.integer(head, at: 4, count: 4, littleEndian: isLittleEndian)
    }

    /// `value` as `count` bytes in the structure's byte order: what ``integer(_:at:count:littleEndian:)`` reads.
    static func bytes(of value: Int, count: Int, littleEndian: Bool) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * (littleEndian ? $0 : count - 1 - $0))) }
    }

    /// An unsigned integer of `count` bytes at `offset`.
    static func integer(_ bytes: [UInt8], at offset: Int, count: Int, littleEndian: Bool) -> Int {
        var value = 0
        for index in 0..<count {
            let byte = Int(bytes[offset + (littleEndian ? count - 1 - index : index)])
            value = value << 8 | byte
        }
        return value
    }

    /// The tags of IFD0 of a whole TIFF structure, with their first value when it is a
    /// SHORT or LONG; nil when the IFD lies outside the bytes.
    static func firstIFDIntegers(_ bytes: [UInt8]) -> [Int: Int]? {
        guard let header = TIFFHeader(bytes) else { return nil }
        let start = header.firstIFDOffset
        guard start >= 8, start + 2 <= bytes.count else { return nil }
        let count = integer(bytes, at: start, count: 2, littleEndian: header.isLittleEndian)
        guard start + 2 + count * 12 <= bytes.count else { return nil }
        var values: [Int: Int] = [:]
        for index in 0..<count {
            let entry = start + 2 + index * 12
            let tag = integer(bytes, at: entry, count: 2, littleEndian: header.isLittleEndian)
            let type = integer(bytes, at: entry + 2, count: 2, littleEndian: header.isLittleEndian)
            switch type {
            case 3: values[tag] = integer(bytes, at: entry + 8, count: 2, littleEndian: header.isLittleEndian)
            case 4: values[tag] = integer(bytes, at: entry + 8, count: 4, littleEndian: header.isLittleEndian)
            default: values[tag] = -1  // present, value not an inline integer
            }
        }
        return values
    }

    /// Changes the field type of IFD0's entry for `tag` from `old` to `new` in place, for types
    /// of the same size and meaning; false when IFD0 has no such entry of type `old`.
    static func retypeFirstIFDEntry(_ bytes: inout [UInt8], tag: Int, from old: Int, to new: Int) -> Bool {
        guard let header = TIFFHeader(bytes) else { return false }
        let start = header.firstIFDOffset
        guard start >= 8, start + 2 <= bytes.count else { return false }
        let count = integer(bytes, at: start, count: 2, littleEndian: header.isLittleEndian)
        for index in 0..<count {
            let entry = start + 2 + index * 12
            guard entry + 12 <= bytes.count else { return false }
            guard integer(bytes, at: entry, count: 2, littleEndian: header.isLittleEndian) == tag,
                  integer(bytes, at: entry + 2, count: 2, littleEndian: header.isLittleEndian) == old else { continue }
            let (low, high) = (UInt8(new & 0xFF), UInt8(new >> 8))
            (bytes[entry + 2], bytes[entry + 3]) = header.isLittleEndian ? (low, high) : (high, low)
            return true
        }
        return false
    }

    /// The SHORT or LONG values of `tag` in the classic-TIFF directory at `offset`, as the file
    /// stores them (libtiff replaces zero StripByteCounts with its own estimate); nil when the
    /// entry is absent, of another type, or outside the bytes.
    static func integers(_ bytes: [UInt8], directoryAt offset: Int, tag: Int) -> [Int]? {
        guard let header = TIFFHeader(bytes), offset >= 8, offset + 2 <= bytes.count else { return nil }
        let little = header.isLittleEndian
        let count = integer(bytes, at: offset, count: 2, littleEndian: little)
        for index in 0..<count {
            let entry = offset + 2 + index * 12
            guard entry + 12 <= bytes.count else { return nil }
            guard integer(bytes, at: entry, count: 2, littleEndian: little) == tag else { continue }
            let type = integer(bytes, at: entry + 2, count: 2, littleEndian: little)
            guard type == 3 || type == 4 else { return nil }
            let size = type == 3 ? 2 : 4
            let values = integer(bytes, at: entry + 4, count: 4, littleEndian: little)
            let start = values * size <= 4 ? entry + 8 : integer(bytes, at: entry + 8, count: 4, littleEndian: little)
            guard values <= bytes.count, start + values * size <= bytes.count else { return nil }
            return (0..<values).map { integer(bytes, at: start + $0 * size, count: size, littleEndian: little) }
        }
        return nil
    }

    /// Where the values of `tag` in the classic-TIFF directory at `offset` lie (any type), and
    /// their length in bytes; nil when the entry is absent or outside the bytes.
    static func entry(_ bytes: [UInt8], directoryAt offset: Int, tag: Int) -> (offset: Int, length: Int)? {
        guard let header = TIFFHeader(bytes), offset >= 8, offset + 2 <= bytes.count else { return nil }
        let little = header.isLittleEndian
        for index in 0..<integer(bytes, at: offset, count: 2, littleEndian: little) {
            let entry = offset + 2 + index * 12
            guard entry + 12 <= bytes.count else { return nil }
            guard integer(bytes, at: entry, count: 2, littleEndian: little) == tag else { continue }
            let type = integer(bytes, at: entry + 2, count: 2, littleEndian: little)
            let length = integer(bytes, at: entry + 4, count: 4, littleEndian: little) * (typeSizes[type] ?? 1)
            let start = length <= 4 ? entry + 8 : integer(bytes, at: entry + 8, count: 4, littleEndian: little)
            return start + length <= bytes.count ? (start, length) : nil
        }
        return nil
    }

    /// Bytes per value of each TIFF field type (1 BYTE ... 13 IFD, 16 LONG8 ... 18 IFD8).
    static let typeSizes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4,
                                                12: 8, 13: 4, 16: 8, 17: 8, 18: 8]

    /// The end (one past the last byte) of the classic-TIFF directory at `offset`, with its
    /// next-IFD link and every value stored outside it; nil when the header or the directory
    /// count cannot be read. A file that ends before this is truncated.
    static func directoryEnd(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard let header = TIFFHeader(bytes), offset >= 8, offset + 2 <= bytes.count else { return nil }
        let count = integer(bytes, at: offset, count: 2, littleEndian: header.isLittleEndian)
        var end = offset + 2 + count * 12 + 4
        for index in 0..<count {
            let entry = offset + 2 + index * 12
            guard entry + 12 <= bytes.count else { break }
            let type = integer(bytes, at: entry + 2, count: 2, littleEndian: header.isLittleEndian)
            let values = integer(bytes, at: entry + 4, count: 4, littleEndian: header.isLittleEndian)
            let length = values * (typeSizes[type] ?? 1)
            if length > 4 {
                end = max(end, integer(bytes, at: entry + 8, count: 4, littleEndian: header.isLittleEndian) + length)
            }
        }
        return end
    }
}
