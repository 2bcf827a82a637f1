import Codecs
import FoundationEssentials
import Imaging

/// Processed pixels delivered with a photo: full-range BT.601 Y'CbCr 4:2:0 in three planes
/// (JFIF's colour space), modelled on a `CVPixelBuffer` of a photo.
public struct PixelBuffer: Sendable {
    /// The planes (package-internal: their storage is mutable and pooled).
    package let image: PlanarImage

    /// Width and height.
    public var size: PixelSize { image.size }

    /// The number of planes: 3 (Y, Cb, Cr), as `CVPixelBufferGetPlaneCount`.
    public var planeCount: Int { 3 }

    /// Width and height of plane 0 (Y), 1 (Cb) or 2 (Cr); the chroma planes are half the size,
    /// rounded up.
    public func size(ofPlane plane: Int) -> PixelSize {
        precondition((0..<planeCount).contains(plane), "a pixel buffer has planes 0, 1 and 2")
        return image.size(ofPlane: plane)
    }

    /// Bytes per row of plane 0, 1 or 2 (at least its width), as
    /// `CVPixelBufferGetBytesPerRowOfPlane`.
    public func bytesPerRow(ofPlane plane: Int) -> Int {
        precondition((0..<planeCount).contains(plane), "a pixel buffer has planes 0, 1 and 2")
        return image.stride(ofPlane: plane)
    }

    /// Calls `body` with the bytes of plane 0, 1 or 2, rows `bytesPerRow(ofPlane:)` apart; the
    /// bytes are valid only inside `body`.
    public func withUnsafeBytes<Result, Failure: Error>(
        ofPlane plane: Int, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let rows = size(ofPlane: plane).height
        let count = rows == 0 ? 0 : (rows - 1) * bytesPerRow(ofPlane: plane) + size(ofPlane: plane).width
        return try body(UnsafeRawBufferPointer(start: image.baseAddress(ofPlane: plane), count: count))
    }

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

extension PixelBuffer {
    /// The pixels of `rgb`, for a preview drawn on (the CLI's overlay) and then saved with
    /// ``jpegData(quality:)``; package-only, not part of the photo API. (In an extension, so
    /// the memberwise initialiser the pipeline uses stays.)
    package init(rgb: RGBImage) throws(PhotoCaptureError) {
        do {
            self.init(image: try rgb.planarImage())
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
    }
}
