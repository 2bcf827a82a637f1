import ImageFiles

extension DecodedImage {
    /// The pixels in a ``PixelBuffer`` (Y'CbCr 4:2:0, like a photo's), for code that takes a
    /// photo's pixel buffer; chroma is averaged over 2×2 pixels.
    public func pixelBuffer() throws(PhotoCaptureError) -> PixelBuffer {
        try PixelBuffer(rgb: image)
    }
}
