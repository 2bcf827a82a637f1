import PhotoCapture
import PhotoCaptureTesting
import TestSupport

/// What a viewer shows for a photo file: the pixels decoded and turned upright with the file's
/// own metadata — ImageMagick `-auto-orient` (third-party) for JPEG and TIFF; for HEIC, the
/// PhotoCaptureTesting product's ``DisplayedImage`` (libheif applying irot/imir, as viewers
/// built on libheif do; ImageMagick's own HEIC reading ignores irot).
enum ViewerImage {
    static func shown(_ path: String, format: PhotoFormat) throws -> RGBImage {
        guard format == .heic else { return try ReferenceDecoder.imageMagickAutoOriented(path) }
        return try DisplayedImage(fileAt: path).image
    }
}
