import CHeif
import Imaging

/// Decodes a grid image (ISO/IEC 23008-12 §6.6.2.3) tile by tile straight into its turned
/// planes: libheif 1.15 assembles a whole 200 MP grid while still holding its decoded tiles
/// (1.2 GB, twice the picture's RGB), where one tile at a time holds the picture's planes once.
enum HEIFGridDecoder {
    /// The tiles of `item` in raster order when `data` says it is a `grid` item, else nil; and
    /// a copy of `data` in which they are images of their own (not hidden, no `dimg` reference
    /// to them), because libheif 1.15 hands out handles of top-level images only. The copy
    /// differs in those flags and four bytes of the reference's type: no offset moves.
    static func tiles(of item: Int, in data: [UInt8]) throws(CodecError) -> (tiles: [Int], exposing: [UInt8])? {
        let file = HEIFBoxReader(bytes: data, range: data.indices)
        guard let meta = try file.boxes().first(where: { $0.type == "meta" }) else { return nil }
        let children = try file.children(ofFullBox: meta)
        guard let iinf = children.first(where: { $0.type == "iinf" }), let iref = children.first(where: { $0.type == "iref" }) else { return nil }
        var isGrid = false
        var flags: [Int: Int] = [:]  // item → offset of its infe flags' last byte
        for entry in try HEIFItemInformation(iinf, in: data).entries {
            guard let identifier = entry.item, let type = entry.typeOffset else { continue }
            flags[identifier] = entry.flagsByte
            if identifier == item {
                guard type + 4 <= entry.box.payload.upperBound else { return nil }
                isGrid = data[type..<(type + 4)].elementsEqual("grid".utf8)
            }
        }
        guard isGrid else { return nil }
        for reference in try HEIFItemReference.all(in: iref, of: file) where reference.type == "dimg" && reference.from == item {
            var exposing = data
            for tile in reference.to {
                guard let flag = flags[tile] else { return nil }
                exposing[flag] &= ~1
            }
            exposing.replaceSubrange((reference.box.start + 4)..<(reference.box.start + 8), with: "xdim".utf8)
            return (reference.to, exposing)
        }
        return nil
    }

    /// `primary`, a grid of `tiles`, turned by `orientation`: each tile decoded (from
    /// `exposing`, the file as ``tiles(of:in:)`` changed it) to its own planes, cut to the
    /// picture, turned and put in its place.
    /// Nil when the grid or a tile is not in JFIF's coding or not 8-bit 4:2:0, or the picture or tiles have an odd side (their
    /// 4:2:0 chroma would not line up once turned), or the tiles do not make a grid of it.
    static func decodeTurned(_ primary: HEIFImageHandle, tiles: [Int], exposing: [UInt8],
                             by orientation: Orientation) throws(CodecError) -> PlanarImage? {
        // The grid's colour description is the picture's, as libheif decodes it.
        guard primary.isJFIFCoded else { return nil }
        return try HEIFContext.withPrimaryImage(of: exposing) { (file, _) throws(CodecError) in
            try decodeTurned(primary, tiles: tiles, in: file, by: orientation)
        }
    }

    private static func decodeTurned(_ primary: HEIFImageHandle, tiles: [Int], in file: HEIFContext,
                                     by orientation: Orientation) throws(CodecError) -> PlanarImage? {
        let size = primary.storedSize
        try PixelBudget.check(size, declaredBy: "HEIC")
        guard size.width % 2 == 0, size.height % 2 == 0, let first = tiles.first else { return nil }
        let tileSize = try handle(first, in: file).storedSize
        guard tileSize.width % 2 == 0, tileSize.height % 2 == 0, tileSize.width > 0, tileSize.height > 0 else { return nil }
        let columns = (size.width + tileSize.width - 1) / tileSize.width, rows = (size.height + tileSize.height - 1) / tileSize.height
        guard columns * rows == tiles.count else { return nil }
        let output: PlanarImage
        do { output = try PlanarImage(size: orientation.apply(to: size)) } catch { throw .imaging(error) }
        for (index, tile) in tiles.enumerated() {
            guard let decoded = try handle(tile, in: file).decodeStoredPlanes(), decoded.size == tileSize else { return nil }
            let corner = (x: index % columns * tileSize.width, y: index / columns * tileSize.height)
            do throws(ImagingError) { try place(decoded, at: corner, of: size, turnedBy: orientation, into: output) } catch { throw .imaging(error) }
        }
        return output
    }

    /// `tile`, whose corner is at `corner` of a picture of `size`, cut to the picture, turned by
    /// `orientation` and copied to where it lands in `output`, the turned picture.
    private static func place(_ tile: PlanarImage, at corner: (x: Int, y: Int), of size: PixelSize, turnedBy orientation: Orientation,
                              into output: PlanarImage) throws(ImagingError) {
        let visible = PixelSize(width: min(tile.size.width, size.width - corner.x), height: min(tile.size.height, size.height - corner.y))
        var piece = tile
        if visible != tile.size {
            piece = try PlanarImage(size: visible)
            try tile.copyBlock(PixelRect(x: 0, y: 0, size: visible), into: piece, x: 0, y: 0)
        }
        let turned = try piece.transformed(by: orientation)
        let first = orientation.apply(toPoint: corner, in: size)
        let last = orientation.apply(toPoint: (corner.x + visible.width - 1, corner.y + visible.height - 1), in: size)
        try turned.copyBlock(PixelRect(x: 0, y: 0, size: turned.size), into: output, x: min(first.x, last.x), y: min(first.y, last.y))
    }

    /// The handle of image item `item`.
    private static func handle(_ item: Int, in file: HEIFContext) throws(CodecError) -> HEIFImageHandle {
        var handle: OpaquePointer?
        try HEIFContext.check(heif.context_get_image_handle(file.context, heif_item_id(item), &handle), "heif_context_get_image_handle")
        guard let handle else { throw .heif(function: "heif_context_get_image_handle", message: "no handle for item \(item)") }
        return HEIFImageHandle(handle)
    }
}
