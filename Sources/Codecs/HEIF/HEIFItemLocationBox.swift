/// An `iloc` box (ISO/IEC 14496-12 §8.11.3) read into its entries, with where each offset field
/// lies: the one parser of the box, for the reader that locates items
/// (``HEIFItemLocations``) and the editors that move or add them.
struct HEIFItemLocationBox {
    /// One extent as stored: its offset field's position in the bytes read, and the offset
    /// (relative to the entry's base) and length it holds.
    struct Extent {
        let field: Int
        let offset: Int
        let length: Int
    }

    /// One item's entry.
    struct Entry {
        let item: Int
        /// The construction method: 0 file offsets, 1 offsets into `idat`.
        let method: Int
        /// 0 for this file.
        let dataReference: Int
        let base: Int
        /// The base offset field's position in the bytes read.
        let baseField: Int
        let extents: [Extent]
    }

    let version: Int
    let offsetSize: Int
    let lengthSize: Int
    let baseSize: Int
    let indexSize: Int
    /// The size of item IDs and of the entry count.
    var idSize: Int { version < 2 ? 2 : 4 }
    let entries: [Entry]

    /// Reads `box`, an `iloc` box of `reader`'s bytes.
    init(_ box: HEIFBoxReader.Box, in reader: HEIFBoxReader) throws(CodecError) {
        func read(_ offset: Int, _ size: Int) throws(CodecError) -> Int {
            size == 0 ? 0 : try reader.integer(at: offset, size: size, within: box.payload)
        }
        version = try read(box.payload.lowerBound, 1)
        guard version <= 2 else { throw .unsupportedFormat(reason: "iloc version \(version)") }
        var position = box.payload.lowerBound + 4
        let sizes = try read(position, 1), more = try read(position + 1, 1)
        (offsetSize, lengthSize, baseSize, indexSize) = (sizes >> 4, sizes & 0xF, more >> 4, version >= 1 ? more & 0xF : 0)
        let idSize = version < 2 ? 2 : 4
        let count = try read(position + 2, idSize)
        position += 2 + idSize
        var entries: [Entry] = []
        for _ in 0..<count {
            let item = try read(position, idSize)
            position += idSize
            let method = version >= 1 ? try read(position, 2) & 0xF : 0
            position += version >= 1 ? 2 : 0
            let reference = try read(position, 2)
            let baseField = position + 2
            let base = try read(baseField, baseSize)
            let extentCount = try read(baseField + baseSize, 2)
            position = baseField + baseSize + 2
            var extents: [Extent] = []
            for _ in 0..<extentCount {
                position += indexSize
                extents.append(Extent(field: position, offset: try read(position, offsetSize),
                                      length: try read(position + offsetSize, lengthSize)))
                position += offsetSize + lengthSize
            }
            entries.append(Entry(item: item, method: method, dataReference: reference, base: base, baseField: baseField,
                                 extents: extents))
        }
        self.entries = entries
    }
}
