import Codecs
import Foundation
import Imaging

/// Processed pixels delivered with a photo: full-range BT.601 Y'CbCr 4:2:0 in three planes
/// (JFIF's colour space), modelled on a `CVPixelBuffer` of a photo.
public struct PixelBuffer: Sendable {
    /// The planes.
    public let image: PlanarImage

    /// Width and height.
    public var size: PixelSize { image.size }

    /// The pixels as packed RGB.
    public func rgbImage() throws(PhotoCaptureError) -> RGBImage {
        do {
            return try image.rgbImage()
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
    }

    /// The pixels as a JPEG file (no EXIF), for saving a preview.
    public func jpegData(quality: Int = 85) throws(PhotoCaptureError) -> Data {
        guard (1...100).contains(quality) else { throw PhotoCaptureError(.qualityOutOfRange(quality)) }
        do {
            return Data(try JPEGEncoder().encode(image, quality: quality))
        } catch {
            throw PhotoCaptureError(encodingFailure: error)
        }
    }
}
