import CHeif
import Imaging

/// Gives a re-encoded HEIF file the auxiliary images of its original's primary image — depth,
/// HDR gain maps, mattes: every kind but alpha, which libheif codes itself — turned as its
/// picture was. libheif 1.15 reads them but has no API to write them.
///
/// Each is decoded as stored and turned by the picture's orientation: its stored samples are
/// aligned with the picture's stored ones (Apple's files give them no `irot`/`imir`; a turn by
/// `orient --from-exif` gives them the picture's). One whose own transformations are other than
/// none or the picture's, or whose picture has a clean aperture (a crop it does not share),
/// or whose samples are deeper than 8 bits is dropped and named. The turned samples are coded
/// by libheif as the only image of a scratch file (monochrome), whose items are taken from
/// there: one `hvc1` item, or for a small image the `grid` of one padded tile
/// libheif makes of it, with their properties (`hvcC`, `ispe`, `pixi`) and data.
///
/// The output file's boxes are then edited as ``HEIFGridWriter`` does: those items are added
/// (renumbered, the image hidden if the original was) with an `auxl` reference from the image
/// to the primary item and the original's descriptive properties (`auxC` byte for byte, so the
/// depth representation survives; `colr`, …), their data appended to `mdat`. The metadata items
/// that describe it (`cdsc`, such as the XMP of Apple's gain map) follow it, their `infe` and
/// bytes copied. `iloc` offsets move by as much as `meta` grows.
package enum HEIFAuxiliaryWriter {
    /// Why an auxiliary image is dropped rather than turned.
    package enum DropReason: Sendable, Hashable {
        /// The picture has a clean aperture (`clap`) the auxiliary image does not share.
        case pictureHasCleanAperture
        /// The auxiliary image has `irot`/`imir`/`clap` of its own, not the picture's.
        case ownTransformations
        /// Its samples are deeper than the 8 bits written back.
        case samplesDeeperThan8Bits
    }

    /// An auxiliary image dropped: its kind ("depth", a gain map's URN...) and why.
    package typealias Dropped = (kind: String, reason: DropReason)

    /// Properties a turned, re-coded image gets from its scratch file, never from the original.
    static let recodedTypes: Set<String> = ["hvcC", "av1C", "ispe", "pixi", "irot", "imir", "clap", "rloc"]

    /// One item to add: its `infe`, its properties (boxes and whether they are essential), its
    /// data and its references to other items.
    struct Item {
        var information: [UInt8]
        var properties: [(box: [UInt8], essential: Bool)]
        var data: [UInt8]
        var references: [(type: String, to: [Int])]
    }

    /// An auxiliary image decoded and turned: its original item, its turned size and samples,
    /// and the metadata items that describe it (item ID and bytes).
    typealias Turned = (item: Int, size: PixelSize, grey: [UInt8], metadata: [(item: Int, bytes: [UInt8])])

    /// `output`, a file libheif wrote of `original`'s picture turned by `orientation`, with
    /// `original`'s auxiliary images other than alpha turned too and coded by `encoder` at
    /// `quality`; and those dropped, with why.
    package static func carrying(auxiliaryImagesOf original: [UInt8], turnedBy orientation: Orientation, into output: [UInt8],
                                 encoder: HEICEncoder, quality: Int) throws(CodecError) -> (bytes: [UInt8], dropped: [Dropped]) {
        let map = try HEIFPropertyMap(data: original)
        let (turned, dropped) = try turnedImages(of: original, map: map, by: orientation)
        guard !turned.isEmpty else { return (output, dropped) }
        let information = try itemInformation(of: original)
        let outputMap = try HEIFPropertyMap(data: output)
        var next = (try itemInformation(of: output).keys.max() ?? 0) + 1
        let firstItem = next
        var items: [Item] = []
        for image in turned {
            guard let entry = map.entries.first(where: { $0.item == image.item }) else {
                throw .corruptFile(format: "HEIF", reason: "ipma has no properties for auxiliary image \(image.item)")
            }
            let scratch = try encoder.encodeGrey(image.grey, size: image.size, quality: quality)
            var coded = try codedItems(of: scratch, from: next)
            next += coded.items.count
            let codedTypes = Set(coded.items[coded.primary].properties.map { String(decoding: $0.box[4..<8], as: UTF8.self) })
            for association in entry.associations where association.index != 0 {
                let property = map.properties[association.index - 1]
                guard !recodedTypes.contains(property.type), !codedTypes.contains(property.type) else { continue }
                coded.items[coded.primary].properties.append((Array(original[property.range]), association.essential))
            }
            let hidden = (information[image.item].map { original[$0.flagsByte] & 1 }) ?? 1
            let flags = coded.items[coded.primary].information.startIndex + 11  // after size, type, version, two flag bytes
            coded.items[coded.primary].information[flags] = coded.items[coded.primary].information[flags] & ~1 | hidden
            coded.items[coded.primary].references.append(("auxl", [outputMap.primaryItem]))
            let identifier = firstItem + items.count + coded.primary
            items += coded.items
            for metadata in image.metadata {
                guard let entry = information[metadata.item] else { continue }
                var copy = Array(original[entry.box.range])
                let idSize = entry.version == 2 ? 2 : 4
                let field = entry.box.payload.lowerBound + 4 - entry.box.start
                copy.replaceSubrange(field..<(field + idSize), with: HEIFOrientationEditor.bigEndian(next, size: idSize))
                items.append(Item(information: copy, properties: [], data: metadata.bytes, references: [("cdsc", [identifier])]))
                next += 1
            }
        }
        guard next - 1 <= 0xFFFF else { throw .unsupportedFormat(reason: "more than 65535 items") }
        return (try adding(items, firstItem: firstItem, to: output), dropped)
    }

    /// The auxiliary images of `original`'s primary image but alpha, decoded and turned by
    /// `orientation`, and those that cannot be, with why.
    private static func turnedImages(of original: [UInt8], map: HEIFPropertyMap,
                                     by orientation: Orientation) throws(CodecError) -> (images: [Turned], dropped: [Dropped]) {
        let references = try HEIFItemReference.all(in: original)
        let cropped = map.properties(of: map.primaryItem).contains { $0.type == "clap" }
        var dropped: [Dropped] = []
        let turned = try HEIFContext.withPrimaryImage(of: original) { (_, primary) throws(CodecError) -> [Turned] in
            var turned: [Turned] = []
            for auxiliary in try primary.auxiliaryImages() where auxiliary.name != "alpha" {
                let own = try map.orientation(of: auxiliary.item)
                if cropped {
                    dropped.append((auxiliary.name, .pictureHasCleanAperture))
                } else if ![Orientation.up, orientation].contains(own) || map.properties(of: auxiliary.item).contains(where: { $0.type == "clap" }) {
                    dropped.append((auxiliary.name, .ownTransformations))
                } else if let stored = try auxiliary.handle.decodeStoredGrey() {
                    var metadata: [(item: Int, bytes: [UInt8])] = []
                    for reference in references where reference.type == "cdsc" && reference.to.contains(auxiliary.item) {
                        metadata.append((reference.from, try auxiliary.handle.metadata(heif_item_id(reference.from))))
                    }
                    turned.append((auxiliary.item, orientation.apply(to: stored.size),
                                   orientation.apply(toPixels: stored.grey, of: stored.size, bytesPerPixel: 1), metadata))
                } else {
                    dropped.append((auxiliary.name, .samplesDeeperThan8Bits))
                }
            }
            return turned
        }
        return (turned, dropped)
    }

    /// The `infe` entries of `data`'s items, by item ID.
    private static func itemInformation(of data: [UInt8]) throws(CodecError) -> [Int: HEIFItemInformation.Entry] {
        let file = HEIFBoxReader(bytes: data, range: data.indices)
        guard let meta = try file.boxes().first(where: { $0.type == "meta" }),
              let iinf = try file.children(ofFullBox: meta).first(where: { $0.type == "iinf" }) else {
            throw .corruptFile(format: "HEIF", reason: "no item information (iinf)")
        }
        var entries: [Int: HEIFItemInformation.Entry] = [:]
        for entry in try HEIFItemInformation(iinf, in: data).entries {
            guard let item = entry.item else { throw .unsupportedFormat(reason: "infe version \(entry.version)") }
            entries[item] = entry
        }
        return entries
    }

    /// The items of `scratch`, a file libheif wrote of one image and nothing else (an `hvc1`
    /// item, or for a small image a grid of one padded tile), renumbered from `first` on, with
    /// their properties, data and references to each other; and which of them is the image.
    private static func codedItems(of scratch: [UInt8], from first: Int) throws(CodecError) -> (items: [Item], primary: Int) {
        let map = try HEIFPropertyMap(data: scratch)
        let information = try itemInformation(of: scratch)
        let identifiers = information.keys.sorted()
        let locations = try HEIFItemLocations(scratch)
        func renumbered(_ item: Int) throws(CodecError) -> Int {
            guard let index = identifiers.firstIndex(of: item) else {
                throw .heif(function: "HEIFAuxiliaryWriter", message: "libheif's auxiliary image refers to no item \(item)")
            }
            return first + index
        }
        let references = try HEIFItemReference.all(in: scratch)
        var items: [Item] = []
        for item in identifiers {
            guard let entry = information[item], entry.version == 2 else {
                throw .heif(function: "HEIFAuxiliaryWriter", message: "libheif's auxiliary image has no infe version 2 for item \(item)")
            }
            var infe = Array(scratch[entry.box.range])
            let field = entry.box.payload.lowerBound + 4 - entry.box.start
            infe.replaceSubrange(field..<(field + 2), with: HEIFOrientationEditor.bigEndian(try renumbered(item), size: 2))
            var properties: [(box: [UInt8], essential: Bool)] = []
            for entry in map.entries where entry.item == item {
                for association in entry.associations where association.index != 0 {
                    properties.append((Array(scratch[map.properties[association.index - 1].range]), association.essential))
                }
            }
            var itemReferences: [(type: String, to: [Int])] = []
            for reference in references where reference.from == item {
                var to: [Int] = []
                for target in reference.to { to.append(try renumbered(target)) }
                itemReferences.append((reference.type, to))
            }
            items.append(Item(information: infe, properties: properties, data: try locations.data(of: item), references: itemReferences))
        }
        guard let primary = identifiers.firstIndex(of: map.primaryItem) else {
            throw .heif(function: "HEIFAuxiliaryWriter", message: "libheif's auxiliary image has no primary item")
        }
        return (items, primary)
    }

    /// `data`, a file whose `meta` is followed by one last `mdat`, with `items` (IDs from
    /// `firstItem` on, in order) added: `infe` entries, references, properties and associations,
    /// their data appended to `mdat` and located by `iloc`.
    static func adding(_ items: [Item], firstItem: Int, to data: [UInt8]) throws(CodecError) -> [UInt8] {
        let (top, metaIndex, mdat, children) = try HEIFGridWriter.boxes(of: data)
        let meta = top[metaIndex]
        let (iinf, iloc, iprp) = try HEIFGridWriter.itemBoxes(in: children)
        let identifiers = Array(firstItem..<(firstItem + items.count))
        var rebuilt: [(type: String, bytes: [UInt8])] = []
        for child in children {
            switch child.type {
            case "iinf": rebuilt.append(("iinf", try itemInformation(iinf, of: data, adding: items.map(\.information))))
            case "iprp":
                rebuilt.append(("iprp", try HEIFGridWriter.properties(iprp, of: data) { index in
                    zip(identifiers, items).filter { !$0.1.properties.isEmpty }.map { identifier, item in
                        (identifier, item.properties.map { (index: index($0.box), essential: $0.essential) })
                    }
                }))
            case "iref": rebuilt.append(("iref", try references(child, of: data, adding: Array(zip(identifiers, items.map(\.references))))))
            default: rebuilt.append((child.type, Array(data[child.range])))
            }
        }
        if !children.contains(where: { $0.type == "iref" }) {
            rebuilt.append(("iref", try references(nil, of: data, adding: Array(zip(identifiers, items.map(\.references))))))
        }
        let ilocBytes = Array(data[iloc.range])
        func located(_ iloc: [UInt8], at start: Int) throws(CodecError) -> [UInt8] {
            var bytes = iloc, offset = start
            for (identifier, item) in zip(identifiers, items) {
                bytes = try HEIFGridWriter.appendingLocation(to: bytes, item: identifier, offset: offset, length: item.data.count)
                offset += item.data.count
            }
            return bytes
        }
        let others = rebuilt.filter { $0.type != "iloc" }.reduce(0) { $0 + $1.bytes.count }
        let metaSize = HEIFOrientationEditor.box("meta", payload: Array(repeating: 0, count: 4 + others + (try located(ilocBytes, at: 0)).count)).count
        let grown = metaSize - meta.range.count
        let appended = items.flatMap(\.data)
        let newMDAT = HEIFOrientationEditor.box("mdat", payload: Array(data[mdat.payload]) + appended)
        guard newMDAT.count - mdat.range.count == appended.count else {
            throw .unsupportedFormat(reason: "an mdat whose header grows past 4 GB")
        }
        let newILOC = try located(try HEIFOrientationEditor.movingOffsets(in: ilocBytes, after: meta.range, by: grown),
                                  at: mdat.range.upperBound + grown)
        var metaPayload = Array(data[meta.payload.lowerBound..<(meta.payload.lowerBound + 4)])
        for child in rebuilt { metaPayload += child.type == "iloc" ? newILOC : child.bytes }
        let newMeta = HEIFOrientationEditor.box("meta", payload: metaPayload)
        guard newMeta.count == metaSize else { throw .heif(function: "HEIFAuxiliaryWriter", message: "meta is \(newMeta.count) bytes, not \(metaSize)") }
        return Array(data[..<meta.start]) + newMeta + Array(data[meta.range.upperBound..<mdat.start]) + newMDAT
    }

    /// `iinf` with `entries` (whole `infe` boxes) appended and its count raised.
    private static func itemInformation(_ iinf: HEIFBoxReader.Box, of data: [UInt8], adding entries: [[UInt8]]) throws(CodecError) -> [UInt8] {
        let information = try HEIFItemInformation(iinf, in: data)
        guard information.boxes.count == information.declaredCount else {
            throw .corruptFile(format: "HEIF", reason: "iinf lists \(information.declaredCount) items but holds \(information.boxes.count) boxes")
        }
        let header = [UInt8(information.version), 0, 0, 0]
            + HEIFOrientationEditor.bigEndian(information.declaredCount + entries.count, size: information.version == 0 ? 2 : 4)
        return HEIFOrientationEditor.box("iinf", payload: header + information.boxes.flatMap { data[$0.range] } + entries.flatMap { $0 })
    }

    /// `iref` (or a new one, for nil) with the references of `added` appended, one box each.
    private static func references(_ iref: HEIFBoxReader.Box?, of data: [UInt8],
                                   adding added: [(item: Int, references: [(type: String, to: [Int])])]) throws(CodecError) -> [UInt8] {
        var version = 0
        var body: [UInt8] = []
        if let iref {
            version = try HEIFBoxReader(bytes: data, range: data.indices).integer(at: iref.payload.lowerBound, size: 1, within: iref.payload)
            body = Array(data[(iref.payload.lowerBound + 4)..<iref.payload.upperBound])
        }
        let idSize = version == 0 ? 2 : 4
        for entry in added {
            for reference in entry.references {
                body += HEIFOrientationEditor.box(reference.type, payload: HEIFOrientationEditor.bigEndian(entry.item, size: idSize)
                    + HEIFOrientationEditor.bigEndian(reference.to.count, size: 2) + reference.to.flatMap { HEIFOrientationEditor.bigEndian($0, size: idSize) })
            }
        }
        return HEIFOrientationEditor.box("iref", payload: [UInt8(version), 0, 0, 0] + body)
    }
}
