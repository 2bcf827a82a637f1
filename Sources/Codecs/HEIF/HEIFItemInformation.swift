/// What an `iinf` box says of the items (ISO/IEC 14496-12 §8.11.6): its `infe` entries, read
/// where they are, for the grid decoder and the grid writer.
struct HEIFItemInformation {
    /// One `infe` entry.
    struct Entry {
        /// The `infe` box.
        let box: HEIFBoxReader.Box
        let version: Int
        /// The item's ID; nil before version 2, whose entries are not read further.
        let item: Int?
        /// Where the item's four-character type starts; nil before version 2.
        let typeOffset: Int?

        /// The offset of the flags' last byte, whose bit 0 says the item is hidden.
        var flagsByte: Int { box.payload.lowerBound + 3 }
    }

    /// The `iinf` version (0: 16-bit entry count, else 32-bit).
    let version: Int
    /// The entry count the box declares.
    let declaredCount: Int
    /// Every box after the count, in order (`infe` entries, in a well-formed file).
    let boxes: [HEIFBoxReader.Box]
    /// The `infe` entries among them.
    let entries: [Entry]

    init(_ iinf: HEIFBoxReader.Box, in data: [UInt8]) throws(CodecError) {
        let reader = HEIFBoxReader(bytes: data, range: data.indices)
        let start = iinf.payload.lowerBound
        version = try reader.integer(at: start, size: 1, within: iinf.payload)
        let countSize = version == 0 ? 2 : 4
        declaredCount = try reader.integer(at: start + 4, size: countSize, within: iinf.payload)
        boxes = try HEIFBoxReader(bytes: data, range: (start + 4 + countSize)..<iinf.payload.upperBound).boxes()
        var entries: [Entry] = []
        for box in boxes where box.type == "infe" {
            // Version and flags: the grid writers edit the flags' last byte (``Entry/flagsByte``).
            let version = try reader.integer(at: box.payload.lowerBound, size: 4, within: box.payload) >> 24
            guard version >= 2 else {
                entries.append(Entry(box: box, version: version, item: nil, typeOffset: nil))
                continue
            }
            let idSize = version == 2 ? 2 : 4
            let item = try reader.integer(at: box.payload.lowerBound + 4, size: idSize, within: box.payload)
            // After the ID, a 16-bit protection index, then the type.
            entries.append(Entry(box: box, version: version, item: item, typeOffset: box.payload.lowerBound + 4 + idSize + 2))
        }
        self.entries = entries
    }
}
