import Codecs
import PhotoCapture
import Foundation
import TestSupport

/// What a viewer shows for a photo file: the pixels decoded and turned upright with the file's
/// own metadata — libheif's API applying irot/imir for HEIC, ImageMagick `-auto-orient` for
/// JPEG and TIFF.
enum ViewerImage {
    static func shown(_ path: String, format: PhotoFormat) throws -> RGBImage {
        guard format == .heic else { return try ReferenceDecoder.imageMagickAutoOriented(path) }
        let decoded = try HEICDecoder.decodeRGB([UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
                                                applyingTransformations: true)
        return RGBImage(size: decoded.size, pixels: decoded.rgb)
    }
}
