import Codecs
import Imaging

/// The reduce and describe stages of a JPEG, run beside its strip encode on one of the same
/// threads once every band is converted: the reductions (the banded thumbnail finished, or
/// scaled from the photo), then the EXIF block with that thumbnail. The encode asks for
/// ``markerSegments()`` as it joins the strips, which is when the EXIF block — Orientation tag
/// and all — goes into the file.
final class JPEGSideWork {
    private let pixels: PixelBuffer
    private let resolved: ResolvedPhotoSettings
    private let described: PhotoDescription
    private let thumbnail: BandedReduction?
    private let encoders: EncoderPool
    /// The reductions and EXIF block and how long they took; nil until ``reduceAndDescribe()`` ran.
    private var outcome: Result<((PhotoReductions, [UInt8]), Duration), PhotoCaptureError>?

    init(pixels: PixelBuffer, resolved: ResolvedPhotoSettings, described: PhotoDescription, thumbnail: BandedReduction?,
         encoders: EncoderPool) {
        (self.pixels, self.resolved, self.described, self.thumbnail, self.encoders) = (pixels, resolved, described, thumbnail, encoders)
    }

    /// Makes the reductions and the EXIF block; called once by the strip encode.
    func reduceAndDescribe() {
        outcome = Result { () throws(PhotoCaptureError) in try PhotoProcessor.timed { () throws(PhotoCaptureError) -> (PhotoReductions, [UInt8]) in
            let reductions = try PhotoCaptureError.imaging { () throws(ImagingError) in
                if let thumbnail { return PhotoReductions(thumbnail: thumbnail.finish()) }
                return try PhotoReductions(scaling: pixels, for: resolved)
            }
            return (reductions, try PhotoCaptureError.encoding { () throws(CodecError) in
                try described.jpegEXIFBlock(thumbnail: reductions.thumbnail, encoders: encoders)
            })
        } }
    }

    /// The EXIF and XMP APP1 segments the strip encode inserts as it joins the strips.
    func markerSegments() throws(CodecError) -> [UInt8] {
        // A failed side is thrown by `result()`, where its error keeps its type.
        guard case .success(((_, let block), _)) = outcome else { return [] }
        return try described.jpegSegments(exifBlock: block)
    }

    /// The reductions, the EXIF block and the time they took, once the encode is done.
    func result() throws(PhotoCaptureError) -> (reductions: PhotoReductions, exifBlock: [UInt8], time: Duration) {
        let ((reductions, block), time) = try outcome!.get()
        return (reductions, block, time)
    }
}
