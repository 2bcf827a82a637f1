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
}
