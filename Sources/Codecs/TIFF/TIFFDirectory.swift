/// One classic-TIFF directory (IFD) of a TIFF file or EXIF block, read through ``ByteReader``:
/// its entry count and entries must lie in the bytes, and every value is read checked, so an
/// offset or count from a damaged file is a ``CodecError`` naming the directory and the byte.
struct TIFFDirectory {
    /// One 12-byte directory entry: where it is and what it declares. It holds no reference
    /// to the bytes (its reads take them), so an editor that keeps entries can change the
    /// bytes in place: an entry holding them would make every edit copy the whole file.
    struct Entry {
        /// Where the entry starts.
        let position: Int
        let tag: Int
        let type: Int
        let count: Int
        /// Bytes per value of the type.
        let typeSize: Int
        var length: Int { count * typeSize }
        /// Where the values are: in the entry's value field when they fit 4 bytes, else at the
        /// offset that field holds (not checked to lie in the bytes: see ``valueRange(in:)``).
        let valuesAt: Int
        /// The format named in errors ("TIFF", "EXIF").
        fileprivate let format: String
        fileprivate let littleEndian: Bool

        /// The bytes of the values in `bytes` (those the entry was read from, or an edit of
        /// them); an error when they lie outside.
        func valueRange(in bytes: [UInt8]) throws(CodecError) -> Range<Int> {
            try valueRange(ByteReader(bytes: bytes, format: format))
        }

        private func valueRange(_ reader: ByteReader) throws(CodecError) -> Range<Int> {
            try reader.range(at: valuesAt, length: length, "the values of tag \(tag)")
        }

        /// Each value as an unsigned integer of the type's size (BYTE, SHORT, LONG).
        func integers(in bytes: [UInt8]) throws(CodecError) -> [Int] {
            let reader = ByteReader(bytes: bytes, format: format)
            let range = try valueRange(reader)
            var values: [Int] = []
            values.reserveCapacity(count)
            for index in 0..<count {
                values.append(try reader.integer(at: range.lowerBound + index * typeSize, count: typeSize,
                                                 littleEndian: littleEndian, "value \(index) of tag \(tag)"))
            }
            return values
        }

        /// The entry's value field read as one SHORT (type 3) or else LONG.
        func inlineInteger(in bytes: [UInt8]) throws(CodecError) -> Int {
            try ByteReader(bytes: bytes, format: format).integer(at: position + 8, count: type == 3 ? 2 : 4,
                                                                 littleEndian: littleEndian, "the value of tag \(tag)")
        }
    }

    /// Where the directory starts.
    let offset: Int
    /// Its entries, in file order.
    let entries: [Entry]
    /// One past its next-IFD link.
    var end: Int { offset + 2 + declaredCount * 12 + 4 }
    /// The number of entries the directory declares.
    let declaredCount: Int

    /// The directory at `offset` of `bytes` (which start with a TIFF header); every entry must
    /// lie in the bytes, unless `wholeEntries` is false, when only those that do are read.
    init(_ bytes: [UInt8], at offset: Int, format: String = "TIFF", wholeEntries: Bool = true) throws(CodecError) {
        guard let header = TIFFHeader(bytes) else {
            throw .corruptFile(format: format, reason: "no TIFF header (\"II*\\0\" or \"MM\\0*\")")
        }
        let reader = ByteReader(bytes: bytes, format: format)
        let little = header.isLittleEndian
        let count = try reader.integer(at: offset, count: 2, littleEndian: little, "the entry count of the directory at byte \(offset)")
        if wholeEntries {
            _ = try reader.range(at: offset + 2, length: count * 12, "the \(count) entries of the directory at byte \(offset)")
        }
        var entries: [Entry] = []
        for index in 0..<count {
            let position = offset + 2 + index * 12
            guard wholeEntries || position + 12 <= bytes.count else { break }
            func field(_ at: Int, _ size: Int) throws(CodecError) -> Int {
                try reader.integer(at: position + at, count: size, littleEndian: little, "entry \(index) of the directory at byte \(offset)")
            }
            let type = try field(2, 2), count = try field(4, 4)
            let typeSize = TIFFHeader.typeSizes[type] ?? 1
            entries.append(Entry(position: position, tag: try field(0, 2), type: type, count: count, typeSize: typeSize,
                                 valuesAt: count * typeSize <= 4 ? position + 8 : try field(8, 4), format: format, littleEndian: little))
        }
        self.offset = offset
        self.entries = entries
        declaredCount = count
    }
}
