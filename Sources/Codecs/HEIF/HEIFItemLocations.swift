/// Where a HEIF file's `iloc` box (ISO/IEC 14496-12 §8.11.3) says each item's data lies: in
/// the file (construction method 0) or in `idat` (method 1), in extents. For
/// ``HEIFAuxiliaryWriter``, which moves the items of a file libheif wrote into another.
struct HEIFItemLocations {
    /// One extent: where it starts (in the file, or in `idat`'s payload) and how long it is.
    struct Extent {
        var offset: Int
        var length: Int
    }

    private let bytes: [UInt8]
    private let idat: Range<Int>?
    /// Item → construction method and extents, in order.
    private var items: [Int: (method: Int, extents: [Extent])] = [:]

    /// Reads the `iloc` of `data`, a whole HEIF file.
    init(_ data: [UInt8]) throws(CodecError) {
        bytes = data
        let file = HEIFBoxReader(bytes: data, range: data.indices)
        guard let meta = try file.boxes().first(where: { $0.type == "meta" }) else {
            throw .corruptFile(format: "HEIF", reason: "no top-level meta box")
        }
        let children = try file.children(ofFullBox: meta)
        idat = children.first(where: { $0.type == "idat" })?.payload
        guard let iloc = children.first(where: { $0.type == "iloc" }) else {
            throw .corruptFile(format: "HEIF", reason: "no item locations (iloc)")
        }
        func read(_ offset: Int, _ size: Int) throws(CodecError) -> Int {
            size == 0 ? 0 : try file.integer(at: offset, size: size, within: iloc.payload)
        }
        let version = try read(iloc.payload.lowerBound, 1)
        guard version <= 2 else { throw .unsupportedFormat(reason: "iloc version \(version)") }
        var position = iloc.payload.lowerBound + 4
        let sizes = try read(position, 1), more = try read(position + 1, 1)
        let (offsetSize, lengthSize, baseSize, indexSize) = (sizes >> 4, sizes & 0xF, more >> 4, version >= 1 ? more & 0xF : 0)
        let idSize = version < 2 ? 2 : 4
        let count = try read(position + 2, idSize)
        position += 2 + idSize
        for _ in 0..<count {
            let item = try read(position, idSize)
            position += idSize
            let method = version >= 1 ? try read(position, 2) & 0xF : 0
            position += version >= 1 ? 2 : 0
            let reference = try read(position, 2)
            let base = try read(position + 2, baseSize)
            let extentCount = try read(position + 2 + baseSize, 2)
            position += 4 + baseSize
            var extents: [Extent] = []
            for _ in 0..<extentCount {
                position += indexSize
                let offset = try read(position, offsetSize)
                extents.append(Extent(offset: try ByteReader.sum(base, offset, format: "HEIF", "the offset of item \(item)'s extent"),
                                      length: try read(position + offsetSize, lengthSize)))
                position += offsetSize + lengthSize
            }
            guard reference == 0 else { throw .unsupportedFormat(reason: "item \(item) stored in another file") }
            items[item] = (method, extents)
        }
    }

    /// The bytes of `item`, its extents joined.
    func data(of item: Int) throws(CodecError) -> [UInt8] {
        guard let location = items[item] else { throw .corruptFile(format: "HEIF", reason: "iloc does not locate item \(item)") }
        let container: Range<Int>
        switch location.method {
        case 0: container = bytes.indices
        case 1:
            guard let idat else { throw .corruptFile(format: "HEIF", reason: "item \(item) is in an idat box the file does not have") }
            container = idat
        default: throw .unsupportedFormat(reason: "item \(item) constructed by method \(location.method)")
        }
        var data: [UInt8] = []
        for extent in location.extents {
            let start = container.lowerBound + extent.offset
            guard extent.length > 0, start >= container.lowerBound, extent.length <= container.upperBound - start else {
                throw .corruptFile(format: "HEIF", reason: "item \(item) has an extent of \(extent.length) bytes at \(extent.offset) outside its data")
            }
            data += bytes[start..<(start + extent.length)]
        }
        return data
    }
}
