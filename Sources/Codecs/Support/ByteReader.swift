/// Reads integers and byte ranges out of a file's bytes with every offset checked: the one
/// way the hand-written parsers (TIFF, EXIF, MPF, HEIF boxes) read, so an offset or count taken
/// from a hostile file becomes a ``CodecError/corruptFile(format:reason:)`` naming the structure
/// and the byte, never an out-of-range trap. Offset arithmetic reports overflow the same way.
struct ByteReader {
    /// The bytes read.
    let bytes: [UInt8]
    /// The format named in errors ("TIFF", "EXIF", "MPF", "HEIF").
    let format: String

    /// The range of `length` bytes at `offset`, which must lie inside the bytes; `structure`
    /// names what was read there for the error.
    func range(at offset: Int, length: Int, _ structure: @autoclosure () -> String) throws(CodecError) -> Range<Int> {
        try range(at: offset, length: length, within: 0..<bytes.count, structure())
    }

    /// The range of `length` bytes at `offset`, which must lie inside `bounds` (a box's payload,
    /// a segment) as well as the bytes.
    func range(at offset: Int, length: Int, within bounds: Range<Int>, _ structure: @autoclosure () -> String) throws(CodecError) -> Range<Int> {
        let end = try Self.sum(offset, length, format: format, structure())
        guard offset >= max(0, bounds.lowerBound), length >= 0, end <= min(bounds.upperBound, bytes.count) else {
            let limit = min(bounds.upperBound, bytes.count)
            throw .corruptFile(format: format, reason: "\(structure()) (\(length) bytes at byte \(offset)) lies outside bytes 0..<\(limit)")
        }
        return offset..<end
    }

    /// An unsigned integer of `count` (at most 8) bytes at `offset`, in the given byte order.
    func integer(at offset: Int, count: Int, littleEndian: Bool, within bounds: Range<Int>? = nil,
                 _ structure: @autoclosure () -> String) throws(CodecError) -> Int {
        guard (0...8).contains(count) else {
            throw .corruptFile(format: format, reason: "\(structure()) at byte \(offset) is a \(count)-byte integer (at most 8 are read)")
        }
        let range = try range(at: offset, length: count, within: bounds ?? 0..<bytes.count, structure())
        var value: UInt64 = 0
        for index in 0..<count {
            value = value << 8 | UInt64(bytes[range.lowerBound + (littleEndian ? count - 1 - index : index)])
        }
        guard let result = Int(exactly: value) else {
            throw .corruptFile(format: format, reason: "\(structure()) at byte \(offset) holds \(value), past any offset or size")
        }
        return result
    }

    /// The bytes at `offset`, `length` long.
    func slice(at offset: Int, length: Int, _ structure: @autoclosure () -> String) throws(CodecError) -> ArraySlice<UInt8> {
        bytes[try range(at: offset, length: length, structure())]
    }

    /// `a + b`, an error naming `structure` of a `format` file when it overflows.
    static func sum(_ a: Int, _ b: Int, format: String, _ structure: @autoclosure () -> String) throws(CodecError) -> Int {
        let (value, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw .corruptFile(format: format, reason: "\(structure()): \(a) + \(b) overflows") }
        return value
    }
}
