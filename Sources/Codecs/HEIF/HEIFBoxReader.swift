/// Walks ISO base media file format boxes inside a byte range.
struct HEIFBoxReader {
    /// One box: its four-character type, where it starts and the range of its payload (after
    /// the header).
    struct Box {
        let type: String
        let start: Int
        let payload: Range<Int>

        /// The whole box, header included.
        var range: Range<Int> { start..<payload.upperBound }
    }

    let bytes: [UInt8]
    let range: Range<Int>

    /// The boxes that tile `range`.
    func boxes() throws(CodecError) -> [Box] {
        var result: [Box] = []
        var position = range.lowerBound
        while position + 8 <= range.upperBound {
            var size = try integer(at: position, size: 4, within: range)
            let type = String(decoding: try reader.slice(at: position + 4, length: 4, "a box type"), as: UTF8.self)
            var header = 8
            if size == 1 {
                size = try integer(at: position + 8, size: 8, within: range)
                header = 16
            } else if size == 0 {
                size = range.upperBound - position  // extends to the end
            }
            guard size >= header, size <= range.upperBound - position else {
                throw .corruptFile(format: "HEIF", reason: "box '\(type)' at byte \(position) has an invalid size \(size)")
            }
            result.append(Box(type: type, start: position, payload: (position + header)..<(position + size)))
            position += size
        }
        return result
    }

    /// The boxes inside `box`, a full box (`meta`, `iref`): after its 4 bytes of version and
    /// flags. A payload too short for them is a corrupt file, not an empty list.
    func children(ofFullBox box: Box) throws(CodecError) -> [Box] {
        guard box.payload.count >= 4 else {
            throw .corruptFile(format: "HEIF", reason: "box '\(box.type)' at byte \(box.start) is too short for its version and flags")
        }
        return try HEIFBoxReader(bytes: bytes, range: (box.payload.lowerBound + 4)..<box.payload.upperBound).boxes()
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`, which must lie inside `bounds`.
    func integer(at offset: Int, size: Int, within bounds: Range<Int>) throws(CodecError) -> Int {
        try reader.integer(at: offset, count: size, littleEndian: false, within: bounds, "a box ends early: a field")
    }

    private var reader: ByteReader { ByteReader(bytes: bytes, format: "HEIF") }
}
