import CHeif
import Imaging

/// Decodes HEIC (and other HEIF) files with libheif.
package enum HEICDecoder {
    /// Decodes the primary image to packed RGB (R, G, B), rows without padding.
    ///
    /// `applyingTransformations` true gives what a viewer shows (libheif applies `irot`/`imir`/
    /// `clap`); false gives the stored pixels.
    package static func decodeRGB(_ data: [UInt8], applyingTransformations: Bool) throws(CodecError) -> (size: PixelSize, rgb: [UInt8]) {
        try HEIFContext.withPrimaryImage(of: data) { (_, primary) throws(CodecError) in
            try primary.decodeRGB(applyingTransformations: applyingTransformations)
        }
    }

    /// Decodes the first thumbnail of the primary image like ``decodeRGB(_:applyingTransformations:)``;
    /// nil when there is no thumbnail.
    package static func decodeThumbnailRGB(_ data: [UInt8], applyingTransformations: Bool) throws(CodecError) -> (size: PixelSize, rgb: [UInt8])? {
        try HEIFContext.withPrimaryImage(of: data) { (_, primary) throws(CodecError) in
            try primary.firstThumbnail()?.decodeRGB(applyingTransformations: applyingTransformations)
        }
    }

    /// Decodes the primary image to its own Y'CbCr 4:2:0 planes, unconverted, turned by
    /// `orientation` (what its `irot`/`imir` do, as ``HEICFileInfo/orientation`` reads them);
    /// nil unless it is coded 8-bit 4:2:0 in JFIF's coding (full-range BT.601, what a
    /// ``PlanarImage`` holds) without a clean aperture (`clap`, a crop the planes would lose).
    /// A grid is decoded tile by tile into the turned planes (``HEIFGridDecoder``); other
    /// images whole, then turned.
    package static func decodeTurnedPlanes(_ data: [UInt8], by orientation: Orientation) throws(CodecError) -> PlanarImage? {
        let properties = try HEIFPropertyMap(data: data)
        guard !properties.properties(of: properties.primaryItem).contains(where: { $0.type == "clap" }) else { return nil }
        let grid = try HEIFGridDecoder.tiles(of: properties.primaryItem, in: data)
        for item in grid?.tiles ?? [properties.primaryItem] where try !properties.codes8Bit420(item) { return nil }
        return try HEIFContext.withPrimaryImage(of: data) { (_, primary) throws(CodecError) -> PlanarImage? in
            if let grid, let turned = try HEIFGridDecoder.decodeTurned(primary, tiles: grid.tiles, exposing: grid.exposing, by: orientation) {
                return turned
            }
            guard let stored = try primary.decodeStoredPlanes() else { return nil }
            do throws(ImagingError) { return try stored.transformed(by: orientation) } catch { throw .imaging(error) }
        }
    }

    /// The primary image's alpha (its auxiliary image of that kind): the stored samples turned
    /// by `orientation`, as ``decodeTurnedPlanes(_:by:)`` turns the picture's, in 8 bits as the
    /// re-encoded picture is (deeper samples scaled); nil without one.
    package static func decodeTurnedAlpha(_ data: [UInt8], by orientation: Orientation) throws(CodecError) -> (size: PixelSize, alpha: [UInt8])? {
        try HEIFContext.withPrimaryImage(of: data) { (_, primary) throws(CodecError) -> (size: PixelSize, alpha: [UInt8])? in
            guard let alpha = try primary.auxiliaryImages().first(where: { $0.name == "alpha" }),
                  let stored = try alpha.handle.decodeStoredGrey(reducing: true) else { return nil }
            return (orientation.apply(to: stored.size), orientation.apply(toPixels: stored.grey, of: stored.size, bytesPerPixel: 1))
        }
    }
}
