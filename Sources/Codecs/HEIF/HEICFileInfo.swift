import CHeif
import Imaging

/// What a HEIC (or other HEIF) file says about its primary image, read with libheif and, for
/// the orientation, from the item properties themselves.
package struct HEICFileInfo: Sendable {
    /// Size of the primary image as stored (its `ispe`).
    package var storedSize: PixelSize
    /// Size after the transformations, as a viewer shows it.
    package var displayedSize: PixelSize
    /// What the `irot` and `imir` properties of the primary item mean, as an EXIF orientation.
    package var orientation: Orientation
    /// Stored size of the primary image's first thumbnail, if any.
    package var thumbnailSize: PixelSize?
    /// The item IDs of the primary image, its thumbnails and its auxiliary images (depth, alpha,
    /// gain maps): the items a turn of the picture applies to.
    package var imageItems: Set<Int>
    /// The TIFF-structured EXIF block of the primary image (libheif's 4-byte offset prefix
    /// removed), if any.
    package var exifBlock: [UInt8]?

    /// Reads `data`, a whole HEIF file.
    package init(data: [UInt8]) throws(CodecError) {
        let read = try HEIFContext.withPrimaryImage(of: data) { (_, primary) throws(CodecError) in
            (primary.storedSize, primary.displayedSize, try primary.firstThumbnail()?.storedSize, try primary.exifItem(),
             primary.thumbnailItems + primary.auxiliaryItems)
        }
        storedSize = read.0
        displayedSize = read.1
        thumbnailSize = read.2
        exifBlock = try read.3.map(Self.tiffBlock(fromExifItem:))
        let properties = try HEIFPropertyMap(data: data)
        orientation = try properties.orientation(of: properties.primaryItem)
        imageItems = Set([properties.primaryItem] + read.4)
    }

    /// Strips the 4-byte big-endian offset HEIF puts before the TIFF header of an Exif item.
    static func tiffBlock(fromExifItem item: [UInt8]) throws(CodecError) -> [UInt8] {
        guard item.count >= 4 else { throw .corruptFile(format: "HEIF", reason: "the Exif item is shorter than its offset field") }
        let offset = item[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let start = 4 + offset
        guard start < item.count, TIFFHeader(item[start...]) != nil else {
            throw .corruptFile(format: "HEIF", reason: "the Exif item has no TIFF header at offset \(offset)")
        }
        return Array(item[start...])
    }
}
