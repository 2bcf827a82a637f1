import Imaging

/// The item properties of a HEIF file: the `ipco` boxes and which items use which, in order.
///
/// Read from the boxes directly because libheif 1.15 applies `irot`/`imir` but has no getter
/// for them. Semantics (ISO/IEC 23008-12): `irot` rotates *anti-clockwise* by angle × 90°;
/// `imir` axis 0 mirrors top-bottom (about a horizontal axis), axis 1 mirrors left-right.
/// They apply in the order the item's `ipma` entry lists them.
struct HEIFPropertyMap {
    /// The primary item (`pitm`).
    let primaryItem: Int
    /// The property boxes of `ipco`; `ipma` indices are 1-based into this list.
    let properties: [HEIFBoxReader.Box]
    /// Item → 1-based property indices, in `ipma` order.
    let associations: [Int: [Int]]
    /// Where each item's association list lies in the file, for in-place repairs.
    let entries: [Entry]
    private let reader: HEIFBoxReader

    /// One item's association list in an `ipma` box.
    struct Entry {
        let item: Int
        /// The raw association values (index plus essential bit), in order.
        let values: [Int]
        /// Offset of the first value and size of each (1 or 2 bytes).
        let start: Int
        let valueSize: Int
        /// The 1-based property index of each value (0: no property).
        var indices: [Int] { associations.map(\.index) }
        /// Each value as its property index and whether the property is essential (the top bit).
        var associations: [(index: Int, essential: Bool)] {
            let essential = valueSize == 2 ? 0x8000 : 0x80
            return values.map { (index: $0 & (essential - 1), essential: $0 & essential != 0) }
        }
    }

    init(data: [UInt8]) throws(CodecError) {
        let file = HEIFBoxReader(bytes: data, range: 0..<data.count)
        reader = file
        guard let meta = try file.boxes().first(where: { $0.type == "meta" }) else {
            throw .corruptFile(format: "HEIF", reason: "no top-level meta box")
        }
        let metaChildren = try file.children(ofFullBox: meta)
        guard let pitm = metaChildren.first(where: { $0.type == "pitm" }) else {
            throw .corruptFile(format: "HEIF", reason: "no pitm box (primary item)")
        }
        let pitmVersion = try file.integer(at: pitm.payload.lowerBound, size: 1, within: pitm.payload)
        primaryItem = try file.integer(at: pitm.payload.lowerBound + 4, size: pitmVersion == 0 ? 2 : 4, within: pitm.payload)
        guard let iprp = metaChildren.first(where: { $0.type == "iprp" }) else {
            properties = []  // no properties at all: nothing to transform
            associations = [:]
            entries = []
            return
        }
        let iprpChildren = try HEIFBoxReader(bytes: data, range: iprp.payload).boxes()
        guard let ipco = iprpChildren.first(where: { $0.type == "ipco" }) else {
            throw .corruptFile(format: "HEIF", reason: "iprp without ipco")
        }
        properties = try HEIFBoxReader(bytes: data, range: ipco.payload).boxes()
        var associations: [Int: [Int]] = [:]
        var entries: [Entry] = []
        for ipma in iprpChildren where ipma.type == "ipma" {
            for entry in try Self.entries(in: ipma, reader: file) {
                // Index 0 means "no property" (ISO/IEC 23008-12); libheif reads such files.
                for index in entry.indices where index > properties.count {
                    throw .corruptFile(format: "HEIF", reason: "ipma associates item \(entry.item) with property \(index), but ipco holds only \(properties.count)")
                }
                associations[entry.item, default: []] += entry.indices.filter { $0 != 0 }
                entries.append(entry)
            }
        }
        self.associations = associations
        self.entries = entries
    }

    /// The property boxes of `item`, in `ipma` order.
    func properties(of item: Int) -> [HEIFBoxReader.Box] {
        (associations[item] ?? []).map { properties[$0 - 1] }
    }

    /// Whether `item` is HEVC coded as 8-bit 4:2:0 (its `hvcC`: chroma_format_idc 1, luma and
    /// chroma bit depths 8), which libheif decodes to Y'CbCr 4:2:0 planes without converting.
    func codes8Bit420(_ item: Int) throws(CodecError) -> Bool {
        guard let hvcC = properties(of: item).first(where: { $0.type == "hvcC" }) else { return false }
        // After version, profile (1 + 4 + 6 bytes), level, segmentation (2) and parallelism.
        let start = hvcC.payload.lowerBound + 16
        let chroma = try reader.integer(at: start, size: 1, within: hvcC.payload) & 3
        let luma = try reader.integer(at: start + 1, size: 1, within: hvcC.payload) & 7
        let chromaDepth = try reader.integer(at: start + 2, size: 1, within: hvcC.payload) & 7
        return chroma == 1 && luma == 0 && chromaDepth == 0
    }

    /// What the `irot`/`imir` properties of `item` mean together, as an EXIF orientation.
    func orientation(of item: Int) throws(CodecError) -> Orientation {
        var orientation = Orientation.up
        for property in properties(of: item) {
            switch property.type {
            case "irot":
                let angle = try reader.integer(at: property.payload.lowerBound, size: 1, within: property.payload) & 3
                orientation = orientation.followed(by: Self.rotation(angle: angle))
            case "imir":
                let axis = try reader.integer(at: property.payload.lowerBound, size: 1, within: property.payload) & 1
                orientation = orientation.followed(by: Self.mirror(axis: axis))
            default:
                continue
            }
        }
        return orientation
    }

    /// What an `irot` of `angle` (0...3, quarter turns anticlockwise) does, as an orientation.
    static func rotation(angle: Int) -> Orientation { Orientation(mirrored: false, clockwiseQuarterTurns: -angle) }

    /// What an `imir` about `axis` does: 0 mirrors top-bottom, 1 left-right.
    static func mirror(axis: Int) -> Orientation { axis == 0 ? .downMirrored : .upMirrored }

    /// Every item's association list in one `ipma` box.
    static func entries(in ipma: HEIFBoxReader.Box, reader: HEIFBoxReader) throws(CodecError) -> [Entry] {
        let start = ipma.payload.lowerBound
        let version = try reader.integer(at: start, size: 1, within: ipma.payload)
        let flags = try reader.integer(at: start + 1, size: 3, within: ipma.payload)
        let entryCount = try reader.integer(at: start + 4, size: 4, within: ipma.payload)
        var position = start + 8
        let idSize = version < 1 ? 2 : 4
        // Values are 1 byte (essential bit + 7-bit index) or, with flag 1, 2 bytes (1 + 15).
        let valueSize = flags & 1 == 1 ? 2 : 1
        var result: [Entry] = []
        for _ in 0..<entryCount {
            let identifier = try reader.integer(at: position, size: idSize, within: ipma.payload)
            let count = try reader.integer(at: position + idSize, size: 1, within: ipma.payload)
            position += idSize + 1
            var values: [Int] = []
            for offset in 0..<count {
                values.append(try reader.integer(at: position + offset * valueSize, size: valueSize, within: ipma.payload))
            }
            result.append(Entry(item: identifier, values: values, start: position, valueSize: valueSize))
            position += count * valueSize
        }
        return result
    }

    /// The properties that transform the image; everything else in `ipco` describes it.
    static let transformativeTypes: Set<String> = ["irot", "imir", "clap"]

    /// Repairs in place two faults of libheif 1.15's files with
    /// `heif_encoding_options.image_orientation`:
    ///
    /// - it associates `irot`/`imir` *before* the descriptive properties (`ispe`, `colr`, …),
    ///   which HEIF forbids (descriptive properties come first), and
    /// - to compensate, it writes the *displayed* size into `ispe` for quarter turns, whereas
    ///   `ispe` is the size of the coded image before transformations (as in Apple's and
    ///   Samsung's files).
    ///
    /// Each association list is stably reordered (descriptive first, transforms in their
    /// order), and an `ispe` of a quarter-turned item that is the transpose of one of
    /// `storedSizes` is swapped back. Both keep every byte count, so no offset moves. A
    /// correct file passes through unchanged; an inconsistent one throws.
    static func repairingTransformedItems(in data: [UInt8], storedSizes: [PixelSize]) throws(CodecError) -> [UInt8] {
        let map = try HEIFPropertyMap(data: data)
        var output = data
        for entry in map.entries {
            let isTransform = entry.indices.map { $0 != 0 && transformativeTypes.contains(map.properties[$0 - 1].type) }
            let reordered = zip(entry.values, isTransform).filter { !$0.1 }.map(\.0)
                + zip(entry.values, isTransform).filter { $0.1 }.map(\.0)
            guard reordered != entry.values else { continue }
            var bytes: [UInt8] = []
            for value in reordered {
                bytes += entry.valueSize == 2 ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value)]
            }
            output.replaceSubrange(entry.start..<(entry.start + bytes.count), with: bytes)
        }

        var rotatedISPEs: Set<Int> = [], uprightISPEs: Set<Int> = []
        for (item, indices) in map.associations {
            let quarterTurned = try map.orientation(of: item).swapsDimensions
            for index in indices where map.properties[index - 1].type == "ispe" {
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
            output.replaceSubrange(widthOffset..<(widthOffset + 8),
                                   with: Array(data[(widthOffset + 4)..<(widthOffset + 8)] + data[widthOffset..<(widthOffset + 4)]))
        }
        return output
    }
}
