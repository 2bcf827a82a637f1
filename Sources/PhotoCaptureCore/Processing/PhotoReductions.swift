import Imaging

/// The reduce stage's product: the small images scaled from the photo.
struct PhotoReductions {
    var preview: PlanarImage?
    var thumbnail: PlanarImage?

    init(preview: PlanarImage? = nil, thumbnail: PlanarImage?) {
        (self.preview, self.thumbnail) = (preview, thumbnail)
    }

    /// Preview and thumbnail, scaled with an area filter from the already transformed photo; the
    /// thumbnail from the preview when that is large enough (fewer pixels to average).
    /// Asks `pixels` for its planes only when there is something to scale.
    init(scaling pixels: PixelBuffer, for resolved: ResolvedPhotoSettings) throws(ImagingError) {
        let preview = try resolved.previewDimensions.map { (size) throws(ImagingError) in try pixels.image.scaled(to: size) }
        let thumbnail = try resolved.embeddedThumbnailDimensions.map { (size) throws(ImagingError) in
            if let preview, preview.size.width >= size.width, preview.size.height >= size.height {
                return try preview.scaled(to: size)
            }
            return try pixels.image.scaled(to: size)
        }
        self.init(preview: preview, thumbnail: thumbnail)
    }
}
