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
        for entry in try HEIFItemLocationBox(iloc, in: file).entries {
            guard entry.dataReference == 0 else { throw .unsupportedFormat(reason: "item \(entry.item) stored in another file") }
            var extents: [Extent] = []
            for extent in entry.extents {
                extents.append(Extent(offset: try ByteReader.sum(entry.base, extent.offset, format: "HEIF",
                                                                 "the offset of item \(entry.item)'s extent"),
                                      length: extent.length))
            }
            items[entry.item] = (entry.method, extents)
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
