import Imaging

/// The `irot`/`imir` properties of a HEIF file's primary item, read from the boxes directly
/// because libheif 1.15 applies them but has no getter for them.
///
/// Semantics (ISO/IEC 23008-12): `irot` rotates *anti-clockwise* by angle × 90°; `imir`
/// axis 0 mirrors top-bottom (about a horizontal axis), axis 1 mirrors left-right. They apply
/// in the order the item's `ipma` entry lists them.
struct HEIFTransformProperties {
    /// The transforms of the primary item, in `ipma` order, composed as an EXIF orientation.
    let orientation: Orientation

    /// Parses `data`; throws when the boxes needed (`meta`, `pitm`, `iprp`/`ipco`/`ipma`) are
    /// missing or malformed.
    init(data: [UInt8]) throws(CodecError) {
        let map = try HEIFPropertyMap(data: data)
        orientation = try map.orientation(of: map.primaryItem)
    }
}

/// The item properties of a HEIF file: the `ipco` boxes and which items use which, in order.
struct HEIFPropertyMap {
    /// The primary item (`pitm`).
    let primaryItem: Int
    /// The property boxes of `ipco`; `ipma` indices are 1-based into this list.
    let properties: [BoxReader.Box]
    /// Item → 1-based property indices, in `ipma` order.
    let associations: [Int: [Int]]
    private let reader: BoxReader

    init(data: [UInt8]) throws(CodecError) {
        let file = BoxReader(bytes: data, range: 0..<data.count)
        reader = file
        guard let meta = try file.boxes().first(where: { $0.type == "meta" }) else {
            throw .corruptFile(format: "HEIF", reason: "no top-level meta box")
        }
        // meta is a FullBox: 4 bytes of version and flags before its children.
        let metaChildren = try BoxReader(bytes: data, range: (meta.payload.lowerBound + 4)..<meta.payload.upperBound).boxes()
        guard let pitm = metaChildren.first(where: { $0.type == "pitm" }) else {
            throw .corruptFile(format: "HEIF", reason: "no pitm box (primary item)")
        }
        let pitmVersion = try file.integer(at: pitm.payload.lowerBound, size: 1, within: pitm.payload)
        primaryItem = try file.integer(at: pitm.payload.lowerBound + 4, size: pitmVersion == 0 ? 2 : 4, within: pitm.payload)
        guard let iprp = metaChildren.first(where: { $0.type == "iprp" }) else {
            properties = []  // no properties at all: nothing to transform
            associations = [:]
            return
        }
        let iprpChildren = try BoxReader(bytes: data, range: iprp.payload).boxes()
        guard let ipco = iprpChildren.first(where: { $0.type == "ipco" }) else {
            throw .corruptFile(format: "HEIF", reason: "iprp without ipco")
        }
        properties = try BoxReader(bytes: data, range: ipco.payload).boxes()
        var associations: [Int: [Int]] = [:]
        for ipma in iprpChildren where ipma.type == "ipma" {
            for (item, indices) in try Self.associations(in: ipma, reader: file) {
                for index in indices where index < 1 || index > properties.count {
                    throw .corruptFile(format: "HEIF", reason: "ipma refers to property \(index) of \(properties.count)")
                }
                associations[item, default: []] += indices
            }
        }
        self.associations = associations
    }

    /// The property boxes of `item`, in `ipma` order.
    func properties(of item: Int) -> [BoxReader.Box] {
        (associations[item] ?? []).compactMap { $0 == 0 ? nil : properties[$0 - 1] }
    }

    /// What the `irot`/`imir` properties of `item` mean together, as an EXIF orientation.
    func orientation(of item: Int) throws(CodecError) -> Orientation {
        var orientation = Orientation.up
        for property in properties(of: item) {
            switch property.type {
            case "irot":
                let angle = try reader.integer(at: property.payload.lowerBound, size: 1, within: property.payload) & 3
                orientation = orientation.followed(by: Orientation(mirrored: false, clockwiseQuarterTurns: -angle))
            case "imir":
                let axis = try reader.integer(at: property.payload.lowerBound, size: 1, within: property.payload) & 1
                orientation = orientation.followed(by: axis == 0 ? .downMirrored : .upMirrored)
            default:
                continue
            }
        }
        return orientation
    }

    /// Every item with its property indices, from one `ipma` box.
    private static func associations(in ipma: BoxReader.Box, reader: BoxReader) throws(CodecError) -> [(Int, [Int])] {
        let start = ipma.payload.lowerBound
        let version = try reader.integer(at: start, size: 1, within: ipma.payload)
        let flags = try reader.integer(at: start + 1, size: 3, within: ipma.payload)
        let entryCount = try reader.integer(at: start + 4, size: 4, within: ipma.payload)
        var position = start + 8
        let idSize = version < 1 ? 2 : 4
        let indexSize = flags & 1 == 1 ? 2 : 1
        var result: [(Int, [Int])] = []
        for _ in 0..<entryCount {
            let identifier = try reader.integer(at: position, size: idSize, within: ipma.payload)
            let count = try reader.integer(at: position + idSize, size: 1, within: ipma.payload)
            position += idSize + 1
            var indices: [Int] = []
            for _ in 0..<count {
                let value = try reader.integer(at: position, size: indexSize, within: ipma.payload)
                // The top bit is the "essential" flag.
                indices.append(indexSize == 2 ? value & 0x7FFF : value & 0x7F)
                position += indexSize
            }
            result.append((identifier, indices))
        }
        return result
    }

    /// Repairs libheif 1.15's `ispe` of quarter-turned items in place.
    ///
    /// With `heif_encoding_options.image_orientation` 5...8, libheif 1.15 writes the *displayed*
    /// (rotated) size into `ispe`, but `ispe` is the size before transformations (as Apple's
    /// and Samsung's files have it, and as the coded image is). For every item with an odd
    /// `irot`, an `ispe` that is the transpose of one of `storedSizes` is swapped back; one
    /// that already matches is left alone (a fixed libheif); anything else throws.
    static func repairingRotatedExtents(in data: [UInt8], storedSizes: [PixelSize]) throws(CodecError) -> [UInt8] {
        let map = try HEIFPropertyMap(data: data)
        var output = data
        var rotatedISPEs: Set<Int> = [], uprightISPEs: Set<Int> = []
        for (item, indices) in map.associations {
            let quarterTurned = try map.orientation(of: item).swapsDimensions
            for index in indices where index > 0 && map.properties[index - 1].type == "ispe" {
                if quarterTurned { rotatedISPEs.insert(index) } else { uprightISPEs.insert(index) }
            }
        }
        for index in rotatedISPEs.sorted() {
            guard !uprightISPEs.contains(index) else {
                throw .heif(function: "heif_context_write", message: "an ispe property is shared by rotated and unrotated items")
            }
            let box = map.properties[index - 1]
            let widthOffset = box.payload.lowerBound + 4  // after version and flags
            let width = try map.reader.integer(at: widthOffset, size: 4, within: box.payload)
            let height = try map.reader.integer(at: widthOffset + 4, size: 4, within: box.payload)
            let written = PixelSize(width: width, height: height)
            if storedSizes.contains(written) { continue }
            guard storedSizes.contains(written.transposed) else {
                throw .heif(function: "heif_context_write", message: "unexpected ispe \(written) for a rotated item")
            }
            output.replaceSubrange(widthOffset..<(widthOffset + 8), with: map.reader.bytes[(widthOffset + 4)..<(widthOffset + 8)]
                + map.reader.bytes[widthOffset..<(widthOffset + 4)])
        }
        return output
    }
}

/// Walks ISO base media file format boxes inside a byte range.
struct BoxReader {
    /// One box: its four-character type and the range of its payload (after the header).
    struct Box {
        let type: String
        let payload: Range<Int>
    }

    let bytes: [UInt8]
    let range: Range<Int>

    /// The boxes that tile `range`.
    func boxes() throws(CodecError) -> [Box] {
        var result: [Box] = []
        var position = range.lowerBound
        while position + 8 <= range.upperBound {
            var size = try integer(at: position, size: 4, within: range)
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            var header = 8
            if size == 1 {
                size = try integer(at: position + 8, size: 8, within: range)
                header = 16
            } else if size == 0 {
                size = range.upperBound - position  // extends to the end
            }
            guard size >= header, position + size <= range.upperBound else {
                throw .corruptFile(format: "HEIF", reason: "box '\(type)' at byte \(position) has an invalid size \(size)")
            }
            result.append(Box(type: type, payload: (position + header)..<(position + size)))
            position += size
        }
        return result
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`, which must lie inside `bounds`.
    func integer(at offset: Int, size: Int, within bounds: Range<Int>) throws(CodecError) -> Int {
        guard offset >= bounds.lowerBound, offset + size <= bounds.upperBound else {
            throw .corruptFile(format: "HEIF", reason: "a box ends early (byte \(offset))")
        }
        var value = 0
        for byte in bytes[offset..<(offset + size)] { value = value << 8 | Int(byte) }
        return value
    }
}
