import Imaging

/// Sets how HEIF readers turn items by editing their `irot`/`imir` properties, never their
/// coded data: the properties an orientation needs are appended to `ipco` (or an identical one
/// reused), the items' associations to the old ones are replaced in `ipma`, and the boxes that
/// grow (`ipco`, `iprp`, `meta`) get their new sizes. Data stored after `meta` moves by as many
/// bytes, so every `iloc` offset into it is moved too; everything else keeps every byte.
package enum HEIFOrientationEditor {
    /// `data` with `items` shown turned by `orientation` (what a viewer must do, as EXIF says it).
    package static func setting(_ orientation: Orientation, ofItems items: Set<Int>, in data: [UInt8]) throws(CodecError) -> [UInt8] {
        let file = HEIFBoxReader(bytes: data, range: 0..<data.count)
        let top = try file.boxes()
        if top.contains(where: { $0.type == "moov" }) {
            throw .unsupportedFormat(reason: "HEIF image sequences (a moov box holds offsets that would move)")
        }
        guard let meta = top.first(where: { $0.type == "meta" }) else {
            throw .corruptFile(format: "HEIF", reason: "no top-level meta box")
        }
        let children = try file.children(ofFullBox: meta)
        guard let iprp = children.first(where: { $0.type == "iprp" }),
              let iloc = children.first(where: { $0.type == "iloc" }) else {
            throw .corruptFile(format: "HEIF", reason: "no item properties (iprp) or locations (iloc)")
        }
        let newProperties = try Self.properties(in: iprp, of: data, showing: orientation, forItems: items)
        var metaPayload = Array(data[meta.payload.lowerBound..<(meta.payload.lowerBound + 4)])  // version, flags
        for child in children {
            metaPayload += child.type == "iprp" ? newProperties : Array(data[child.range])
        }
        let grown = box("meta", payload: metaPayload).count - meta.range.count
        // iloc keeps its size; patch it where it now lies in the new payload.
        var offset = 4
        for child in children {
            if child.type == "iloc" {
                let patched = try movingOffsets(in: Array(data[iloc.range]), after: meta.range, by: grown)
                metaPayload.replaceSubrange(offset..<(offset + patched.count), with: patched)
            }
            offset += child.type == "iprp" ? newProperties.count : child.range.count
        }
        return Array(data[..<meta.start]) + box("meta", payload: metaPayload) + Array(data[meta.range.upperBound...])
    }

    /// The `irot` (angle 0...3) and `imir` (axis) whose effect in that order is `orientation`.
    static func transforms(for orientation: Orientation) -> (angle: Int, mirrorAxis: Int?) {
        for angle in 0..<4 {
            for axis in [nil, 0, 1] as [Int?] {
                var shown = HEIFPropertyMap.rotation(angle: angle)
                if let axis { shown = shown.followed(by: HEIFPropertyMap.mirror(axis: axis)) }
                if shown == orientation { return (angle, axis) }
            }
        }
        preconditionFailure("every orientation is a rotation, perhaps followed by a mirror")
    }

    /// The new `iprp` box: `ipco` with the needed properties, `ipma` associating them.
    private static func properties(in iprp: HEIFBoxReader.Box, of data: [UInt8], showing orientation: Orientation,
                                   forItems items: Set<Int>) throws(CodecError) -> [UInt8] {
        let children = try HEIFBoxReader(bytes: data, range: iprp.payload).boxes()
        guard let ipco = children.first(where: { $0.type == "ipco" }) else {
            throw .corruptFile(format: "HEIF", reason: "iprp without ipco")
        }
        let existing = try HEIFBoxReader(bytes: data, range: ipco.payload).boxes()
        var properties = existing.map { Array(data[$0.range]) }
        // 1-based index of a property box with these bytes, appended when there is none.
        func index(of property: [UInt8]) -> Int {
            if let found = properties.firstIndex(of: property) { return found + 1 }
            properties.append(property)
            return properties.count
        }
        let (angle, axis) = transforms(for: orientation)
        var added: [Int] = []
        if angle != 0 { added.append(index(of: box("irot", payload: [UInt8(angle)]))) }
        if let axis { added.append(index(of: box("imir", payload: [UInt8(axis)]))) }
        let transformative = Set(existing.indices.filter { ["irot", "imir"].contains(existing[$0].type) }.map { $0 + 1 })

        var payload: [UInt8] = []
        var found: Set<Int> = []
        for child in children {
            switch child.type {
            case "ipco": payload += box("ipco", payload: properties.flatMap { $0 })
            case "ipma":
                payload += try associations(in: child, of: data) { item, indices in
                    guard items.contains(item) else { return indices }
                    found.insert(item)
                    // Transformative properties come after the descriptive ones, and are essential.
                    return indices.filter { !transformative.contains($0.index) } + added.map { (index: $0, essential: true) }
                }
            default: payload += data[child.range]
            }
        }
        guard found == items else {
            throw .corruptFile(format: "HEIF", reason: "ipma has no properties for item \(items.subtracting(found).sorted().map(String.init).joined(separator: ", "))")
        }
        return box("iprp", payload: payload)
    }

    /// An `ipma` box rewritten with each item's associations passed through `change`, and the
    /// entries of `added` (items after every listed one) at its end; values become 2 bytes wide
    /// when an index no longer fits 7 bits.
    static func associations(in ipma: HEIFBoxReader.Box, of data: [UInt8], adding added: [(item: Int, associations: [(index: Int, essential: Bool)])] = [],
                             _ change: (Int, [(index: Int, essential: Bool)]) -> [(index: Int, essential: Bool)]) throws(CodecError) -> [UInt8] {
        let reader = HEIFBoxReader(bytes: data, range: data.indices)
        let start = ipma.payload.lowerBound
        let version = try reader.integer(at: start, size: 1, within: ipma.payload)
        var flags = try reader.integer(at: start + 1, size: 3, within: ipma.payload)
        let entries = try HEIFPropertyMap.entries(in: ipma, reader: reader).map { entry in
            (item: entry.item, associations: change(entry.item, entry.associations))
        } + added
        if entries.contains(where: { $0.associations.contains { $0.index > 0x7F } }) { flags |= 1 }
        let wide = flags & 1 == 1
        var payload = [UInt8(version)] + bigEndian(flags, size: 3) + bigEndian(entries.count, size: 4)
        for entry in entries {
            guard entry.associations.count <= 0xFF else { throw .unsupportedFormat(reason: "more than 255 properties for one item") }
            payload += bigEndian(entry.item, size: version < 1 ? 2 : 4) + [UInt8(entry.associations.count)]
            for association in entry.associations {
                let value = association.index | (association.essential ? (wide ? 0x8000 : 0x80) : 0)
                payload += bigEndian(value, size: wide ? 2 : 1)
            }
        }
        return box("ipma", payload: payload)
    }

    /// `iloc` (the whole box) with every file offset at or after `meta`'s end moved by `distance`;
    /// offsets into `idat` or other items do not move. An item inside `meta` itself is refused.
    static func movingOffsets(in iloc: [UInt8], after meta: Range<Int>, by distance: Int) throws(CodecError) -> [UInt8] {
        guard distance != 0 else { return iloc }
        var bytes = iloc
        let reader = HEIFBoxReader(bytes: iloc, range: iloc.indices)
        guard let whole = try reader.boxes().first else { throw .corruptFile(format: "HEIF", reason: "empty iloc") }
        let box = try HEIFItemLocationBox(whole, in: reader)
        // Only file offsets (method 0) in this file (reference 0) move.
        for entry in box.entries where entry.method == 0 && entry.dataReference == 0 {
            let item = entry.item
            var absolute: [Int] = []
            for extent in entry.extents {
                absolute.append(try ByteReader.sum(entry.base, extent.offset, format: "HEIF", "the offset of item \(item)'s extent"))
            }
            if absolute.allSatisfy({ $0 < meta.lowerBound }) { continue }
            guard absolute.allSatisfy({ $0 >= meta.upperBound }) else {
                throw .unsupportedFormat(reason: "item \(item) stored inside or across the meta box")
            }
            if box.baseSize > 0, entry.base >= meta.upperBound {
                try write(try ByteReader.sum(entry.base, distance, format: "HEIF", "item \(item)'s base offset"),
                          at: entry.baseField, size: box.baseSize, into: &bytes)
            } else {
                guard box.offsetSize > 0 else { throw .unsupportedFormat(reason: "item \(item) with no offset field to move") }
                for extent in entry.extents {
                    let moved = try ByteReader.sum(extent.offset, distance, format: "HEIF", "item \(item)'s offset")
                    try write(moved, at: extent.field, size: box.offsetSize, into: &bytes)
                }
            }
        }
        return bytes
    }

    private static func write(_ value: Int, at offset: Int, size: Int, into bytes: inout [UInt8]) throws(CodecError) {
        guard value >= 0, size == 8 || value >> (8 * size) == 0 else {
            throw .unsupportedFormat(reason: "an iloc offset that no longer fits its \(size)-byte field")
        }
        bytes.replaceSubrange(offset..<(offset + size), with: bigEndian(value, size: size))
    }

    /// A box of `type` around `payload` (a 64-bit size when it needs one).
    static func box(_ type: String, payload: [UInt8]) -> [UInt8] {
        let size = payload.count + 8
        if size <= Int(UInt32.max) { return bigEndian(size, size: 4) + Array(type.utf8) + payload }
        return bigEndian(1, size: 4) + Array(type.utf8) + bigEndian(size + 8, size: 8) + payload
    }

    static func bigEndian(_ value: Int, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
    }
}
