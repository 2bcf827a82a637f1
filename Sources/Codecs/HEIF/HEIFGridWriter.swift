import Imaging

/// Makes one grid image (ISO/IEC 23008-12 §6.6.2.3) of tiles that libheif coded as separate
/// images, which is how phones store big pictures: libheif 1.15 has no API to write a grid, and
/// x265 coding a 200 MP picture in one piece holds over a gigabyte.
///
/// The file libheif wrote (ftyp, meta, then one mdat holding every item) is restructured: a
/// `grid` item is added — its ImageGrid payload appended to `mdat`, its `dimg` references to the
/// tiles in raster order, an `ispe` of the whole picture, the first tile's descriptive
/// properties (`colr`, `pixi`) and the `irot`/`imir` of the orientation — and made primary
/// (`pitm`); `ftyp` lists each brand once; the tiles are hidden (`infe` flag 1); `thmb` and `cdsc` references to the first
/// tile (thumbnails, Exif, XMP, which libheif attached to it) go to the grid. The coded data
/// does not change; `iloc` offsets move by as much as `meta` grows.
enum HEIFGridWriter {
    /// The tiles of a grid and the picture they cover.
    struct Layout {
        /// The tile items, in raster order (left to right, top to bottom).
        var tiles: [Int]
        var columns: Int
        var rows: Int
        /// The picture's size: at most the tiles' total, whose right and bottom edges are cut off.
        var size: PixelSize
    }

    /// `data`, a file libheif wrote with the tiles of `layout` among its images, with those
    /// tiles made one grid image shown turned by `orientation`.
    static func grid(_ layout: Layout, orientation: Orientation, in data: [UInt8]) throws(CodecError) -> [UInt8] {
        guard layout.tiles.count == layout.columns * layout.rows, (1...256).contains(layout.columns), (1...256).contains(layout.rows) else {
            throw .invalidArgument("a grid of \(layout.tiles.count) tiles in \(layout.columns)x\(layout.rows)")
        }
        let (top, metaIndex, mdat, children) = try Self.boxes(of: data)
        let meta = top[metaIndex]
        let (iinf, iloc, iprp) = try Self.itemBoxes(in: children)
        let (items, newIINF) = try itemInformation(iinf, of: data, hiding: Set(layout.tiles))
        let grid = (items.max() ?? 0) + 1
        guard grid <= 0xFFFF else { throw .unsupportedFormat(reason: "more than 65535 items") }
        let payload = gridPayload(layout)

        // Every child but iloc, whose offsets depend on the size of the rest.
        var rebuilt: [(type: String, bytes: [UInt8])] = []
        for child in children {
            switch child.type {
            case "pitm": rebuilt.append(("pitm", HEIFOrientationEditor.box("pitm", payload: [0, 0, 0, 0] + HEIFOrientationEditor.bigEndian(grid, size: 2))))
            case "iinf": rebuilt.append(("iinf", newIINF))
            case "iprp": rebuilt.append(("iprp", try properties(iprp, of: data, grid: grid, firstTile: layout.tiles[0], size: layout.size, orientation: orientation)))
            case "iref": rebuilt.append(("iref", try references(child, of: data, grid: grid, tiles: layout.tiles)))
            default: rebuilt.append((child.type, Array(data[child.range])))
            }
        }
        if !children.contains(where: { $0.type == "iref" }) {
            rebuilt.append(("iref", try references(nil, of: data, grid: grid, tiles: layout.tiles)))
        }
        let prefix = try leadingBoxes(top[..<metaIndex], of: data)
        let others = rebuilt.filter { $0.type != "iloc" }.reduce(0) { $0 + $1.bytes.count }
        let ilocBytes = Array(data[iloc.range])
        let entrySize = try appendingLocation(to: ilocBytes, item: grid, offset: 0, length: payload.count).count - ilocBytes.count
        let metaSize = HEIFOrientationEditor.box("meta", payload: Array(repeating: 0, count: 4 + others + ilocBytes.count + entrySize)).count
        let grown = prefix.count + metaSize - meta.range.upperBound
        let newMDAT = HEIFOrientationEditor.box("mdat", payload: Array(data[mdat.payload]) + payload)
        guard newMDAT.count - mdat.range.count == payload.count else {
            throw .unsupportedFormat(reason: "an mdat whose header grows past 4 GB")
        }
        let gridOffset = mdat.range.upperBound + grown
        let moved = try HEIFOrientationEditor.movingOffsets(in: ilocBytes, after: meta.range, by: grown)
        let newILOC = try appendingLocation(to: moved, item: grid, offset: gridOffset, length: payload.count)

        var metaPayload = Array(data[meta.payload.lowerBound..<(meta.payload.lowerBound + 4)])
        for child in rebuilt { metaPayload += child.type == "iloc" ? newILOC : child.bytes }
        let newMeta = HEIFOrientationEditor.box("meta", payload: metaPayload)
        guard newMeta.count == metaSize else { throw .heif(function: "HEIFGridWriter", message: "meta is \(newMeta.count) bytes, not \(metaSize)") }
        return prefix + newMeta + Array(data[meta.range.upperBound..<mdat.start]) + newMDAT
    }

    /// The top-level boxes of `data`, a file libheif wrote, where `meta` is among them, its one
    /// last `mdat` (after `meta`) and `meta`'s children.
    static func boxes(of data: [UInt8]) throws(CodecError) -> (top: [HEIFBoxReader.Box], metaIndex: Int, mdat: HEIFBoxReader.Box,
                                                                 children: [HEIFBoxReader.Box]) {
        let file = HEIFBoxReader(bytes: data, range: data.indices)
        let top = try file.boxes()
        guard let metaIndex = top.firstIndex(where: { $0.type == "meta" }), let mdat = top.last, mdat.type == "mdat",
              top.filter({ $0.type == "mdat" }).count == 1, mdat.start > top[metaIndex].start else {
            throw .unsupportedFormat(reason: "a HEIF file whose meta is not followed by one last mdat")
        }
        return (top, metaIndex, mdat, try file.children(ofFullBox: top[metaIndex]))
    }

    /// The `iinf`, `iloc` and `iprp` among `meta`'s `children`, which every image file has.
    static func itemBoxes(in children: [HEIFBoxReader.Box]) throws(CodecError) -> (iinf: HEIFBoxReader.Box, iloc: HEIFBoxReader.Box, iprp: HEIFBoxReader.Box) {
        guard let iinf = children.first(where: { $0.type == "iinf" }), let iloc = children.first(where: { $0.type == "iloc" }),
              let iprp = children.first(where: { $0.type == "iprp" }) else {
            throw .corruptFile(format: "HEIF", reason: "no item information, locations or properties")
        }
        return (iinf, iloc, iprp)
    }

    /// The boxes before `meta`, with each brand listed once in `ftyp`: libheif 1.15 lists them
    /// again for every image it codes, and readers that look for them in a file's first bytes
    /// (heif-info) find no end to a list of hundreds of tiles.
    private static func leadingBoxes(_ boxes: ArraySlice<HEIFBoxReader.Box>, of data: [UInt8]) throws(CodecError) -> [UInt8] {
        var bytes: [UInt8] = []
        for box in boxes {
            guard box.type == "ftyp", box.payload.count >= 8, box.payload.count % 4 == 0 else {
                bytes += data[box.range]
                continue
            }
            var brands: [ArraySlice<UInt8>] = []
            for start in stride(from: box.payload.lowerBound + 8, to: box.payload.upperBound, by: 4) where !brands.contains(data[start..<(start + 4)]) {
                brands.append(data[start..<(start + 4)])
            }
            bytes += HEIFOrientationEditor.box("ftyp", payload: Array(data[box.payload.prefix(8)]) + brands.flatMap { $0 })
        }
        return bytes
    }

    /// The ImageGrid payload: version 0, flags (1: 32-bit sizes), rows − 1, columns − 1, size.
    static func gridPayload(_ layout: Layout) -> [UInt8] {
        let wide = max(layout.size.width, layout.size.height) > 0xFFFF
        return [0, wide ? 1 : 0, UInt8(layout.rows - 1), UInt8(layout.columns - 1)]
            + HEIFOrientationEditor.bigEndian(layout.size.width, size: wide ? 4 : 2)
            + HEIFOrientationEditor.bigEndian(layout.size.height, size: wide ? 4 : 2)
    }

    /// The item IDs `iinf` lists, and the box with the `hidden` items flagged (bit 0 of the
    /// `infe` flags) and an `infe` (version 2) for the grid, the next free ID, appended.
    private static func itemInformation(_ iinf: HEIFBoxReader.Box, of data: [UInt8], hiding hidden: Set<Int>) throws(CodecError) -> (items: [Int], box: [UInt8]) {
        let information = try HEIFItemInformation(iinf, in: data)
        let count = information.declaredCount
        guard information.boxes.count == count, information.entries.count == count else {
            throw .corruptFile(format: "HEIF", reason: "iinf lists \(count) items but holds \(information.boxes.count) boxes")
        }
        var items: [Int] = []
        var body: [UInt8] = []
        for entry in information.entries {
            guard let item = entry.item else { throw .unsupportedFormat(reason: "infe version \(entry.version)") }
            var bytes = Array(data[entry.box.range])
            items.append(item)
            if hidden.contains(item) { bytes[entry.flagsByte - entry.box.start] |= 1 }
            body += bytes
        }
        guard hidden.isSubset(of: Set(items)) else { throw .invalidArgument("grid tiles that are not items of the file") }
        let grid = (items.max() ?? 0) + 1
        body += HEIFOrientationEditor.box("infe", payload: [2, 0, 0, 0] + HEIFOrientationEditor.bigEndian(grid, size: 2) + [0, 0] + Array("grid".utf8) + [0])
        let header = [UInt8(information.version), 0, 0, 0]
            + HEIFOrientationEditor.bigEndian(count + 1, size: information.version == 0 ? 2 : 4)
        return (items, HEIFOrientationEditor.box("iinf", payload: header + body))
    }

    /// `iprp` with an `ispe` of `size` and the `irot`/`imir` of `orientation` in `ipco` (or the
    /// identical boxes already there), and an `ipma` entry giving the grid those and the first
    /// tile's descriptive properties but its coding (`hvcC`) and size.
    private static func properties(_ iprp: HEIFBoxReader.Box, of data: [UInt8], grid: Int, firstTile: Int, size: PixelSize,
                                   orientation: Orientation) throws(CodecError) -> [UInt8] {
        let map = try HEIFPropertyMap(data: data)
        guard let tileEntry = map.entries.first(where: { $0.item == firstTile }) else {
            throw .corruptFile(format: "HEIF", reason: "ipma has no properties for tile \(firstTile)")
        }
        return try properties(iprp, of: data) { index in
            let notCarried: Set<String> = ["hvcC", "ispe", "irot", "imir", "clap"]
            var associations = tileEntry.associations.filter { $0.index != 0 && !notCarried.contains(map.properties[$0.index - 1].type) }
            associations.append((index(HEIFOrientationEditor.box("ispe", payload: [0, 0, 0, 0] + HEIFOrientationEditor.bigEndian(size.width, size: 4)
                    + HEIFOrientationEditor.bigEndian(size.height, size: 4))), false))
            // Transformative properties come after the descriptive ones, and are essential.
            let (angle, axis) = HEIFOrientationEditor.transforms(for: orientation)
            if angle != 0 { associations.append((index(HEIFOrientationEditor.box("irot", payload: [UInt8(angle)])), true)) }
            if let axis { associations.append((index(HEIFOrientationEditor.box("imir", payload: [UInt8(axis)])), true)) }
            return [(grid, associations)]
        }
    }

    /// `iprp` with the `ipma` entries `added` makes appended; it gets the 1-based `ipco` index of
    /// a property box, an identical one already there or else the box appended to `ipco`.
    static func properties(_ iprp: HEIFBoxReader.Box, of data: [UInt8],
                           adding added: (_ index: ([UInt8]) -> Int) -> [(item: Int, associations: [(index: Int, essential: Bool)])]) throws(CodecError) -> [UInt8] {
        let map = try HEIFPropertyMap(data: data)
        var boxes = map.properties.map { Array(data[$0.range]) }
        let entries = added { property in
            if let found = boxes.firstIndex(of: property) { return found + 1 }
            boxes.append(property)
            return boxes.count
        }
        var payload: [UInt8] = []
        var done = false
        for child in try HEIFBoxReader(bytes: data, range: iprp.payload).boxes() {
            switch child.type {
            case "ipco": payload += HEIFOrientationEditor.box("ipco", payload: boxes.flatMap { $0 })
            case "ipma":
                payload += try HEIFOrientationEditor.associations(in: child, of: data, adding: done ? [] : entries) { $1 }
                done = true
            default: payload += data[child.range]
            }
        }
        return HEIFOrientationEditor.box("iprp", payload: payload)
    }

    /// `iref` (or a new one, for nil) with `thmb` and `cdsc` references to the first tile
    /// turned to the grid, and the grid's `dimg` references to its tiles appended.
    private static func references(_ iref: HEIFBoxReader.Box?, of data: [UInt8], grid: Int, tiles: [Int]) throws(CodecError) -> [UInt8] {
        let reader = HEIFBoxReader(bytes: data, range: data.indices)
        var version = 0
        var body: [UInt8] = []
        if let iref {
            version = try reader.integer(at: iref.payload.lowerBound, size: 1, within: iref.payload)
            let idSize = version == 0 ? 2 : 4
            for reference in try reader.children(ofFullBox: iref) {
                var bytes = Array(data[reference.range])
                if ["thmb", "cdsc"].contains(reference.type) {
                    let start = reference.payload.lowerBound
                    let count = try reader.integer(at: start + idSize, size: 2, within: reference.payload)
                    for slot in 0..<count {
                        let field = start + idSize + 2 + slot * idSize
                        if try reader.integer(at: field, size: idSize, within: reference.payload) == tiles[0] {
                            let offset = field - reference.start
                            bytes.replaceSubrange(offset..<(offset + idSize), with: HEIFOrientationEditor.bigEndian(grid, size: idSize))
                        }
                    }
                }
                body += bytes
            }
        }
        let idSize = version == 0 ? 2 : 4
        body += HEIFOrientationEditor.box("dimg", payload: HEIFOrientationEditor.bigEndian(grid, size: idSize)
            + HEIFOrientationEditor.bigEndian(tiles.count, size: 2) + tiles.flatMap { HEIFOrientationEditor.bigEndian($0, size: idSize) })
        return HEIFOrientationEditor.box("iref", payload: [UInt8(version), 0, 0, 0] + body)
    }

    /// `iloc` (the whole box) with one more item: `length` bytes at file offset `offset`, in
    /// the box's own field sizes.
    static func appendingLocation(to iloc: [UInt8], item: Int, offset: Int, length: Int) throws(CodecError) -> [UInt8] {
        let reader = HEIFBoxReader(bytes: iloc, range: iloc.indices)
        guard let whole = try reader.boxes().first else { throw .corruptFile(format: "HEIF", reason: "empty iloc") }
        let box = try HEIFItemLocationBox(whole, in: reader)
        let (version, offsetSize, lengthSize, baseSize) = (box.version, box.offsetSize, box.lengthSize, box.baseSize)
        let (indexSize, countSize, count) = (box.indexSize, box.idSize, box.entries.count)
        guard lengthSize > 0, offsetSize > 0 || baseSize > 0 else {
            throw .unsupportedFormat(reason: "iloc version \(version) with offset/length sizes \(offsetSize)/\(lengthSize)")
        }
        func field(_ value: Int, _ size: Int) throws(CodecError) -> [UInt8] {
            guard size == 8 || value >> (8 * size) == 0 else { throw .unsupportedFormat(reason: "an item offset that does not fit \(size) bytes") }
            return HEIFOrientationEditor.bigEndian(value, size: size)
        }
        var entry = try field(item, countSize) + (version >= 1 ? [0, 0] : []) + [0, 0]  // construction method 0, this file
        entry += try field(baseSize > 0 ? offset : 0, baseSize) + [0, 1] + Array(repeating: 0, count: indexSize)
        entry += try field(baseSize > 0 ? 0 : offset, offsetSize) + field(length, lengthSize)
        var payload = Array(iloc[whole.payload])
        payload.replaceSubrange(6..<(6 + countSize), with: try field(count + 1, countSize))
        return HEIFOrientationEditor.box("iloc", payload: payload + entry)
    }
}
