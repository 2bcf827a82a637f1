extension PhotoSettings {
    /// Settings for a RAW photo in `rawPixelFormat`, alone (`processedFormat` nil: one DNG) or
    /// with a processed photo developed from the same frame (two photos, one request), like
    /// `AVCapturePhotoSettings(rawPixelFormatType:processedFormat:)`.
    public init(rawPixelFormat: FramePixelFormat, processedFormat: PhotoFormat? = nil) {
        self.init(format: processedFormat ?? .dng)
        self.rawPixelFormat = rawPixelFormat
    }

    /// Whether the request delivers a RAW (DNG) photo.
    public var isRawPhotoRequested: Bool { format == .dng || rawPixelFormat != nil }

    /// Whether the request delivers a processed photo (alone or with the RAW photo).
    public var isProcessedPhotoRequested: Bool { format.isProcessed }

    /// Photos one request delivers: the RAW photo and the processed photo, as asked.
    var photoCount: Int { (isRawPhotoRequested ? 1 : 0) + (isProcessedPhotoRequested ? 1 : 0) }
}
