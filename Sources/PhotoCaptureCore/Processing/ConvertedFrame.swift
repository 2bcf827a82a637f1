import Imaging

/// What the convert stage hands to the encode stage: the photo's pixels, and how the encode gets
/// them.
struct ConvertedFrame {
    /// The camera's JPEG, when it is kept as delivered or turned losslessly (the MJPEG route):
    /// then no conversion or encode is done, and ``pixels`` are its decoded planes.
    struct KeptJPEG {
        let bytes: [UInt8]
        let route: EncodingRoute
    }

    /// The photo's pixels: converted, decoded from a kept JPEG, or made later — by the strip
    /// encode (``inEncode``) or not at all unless read (``PixelBuffer/init(deferring:)``).
    let pixels: PixelBuffer
    let keptJPEG: KeptJPEG?
    /// A JPEG's conversion, done by the strip encode band by band, each band just before it is
    /// encoded (in cache), quarter turns too; other formats are converted whole by the convert
    /// stage.
    let inEncode: FrameConversion?
    /// Encoded from band buffers, the photo's planes made only if asked for
    /// (see ``PhotoProcessor/encodesFromBands(_:framesAreFreeToKeep:)``).
    let deferredPlanes: Bool
    /// What the merge did, for a photo merged from several frames.
    let merged: FrameMergeReport?

    init(pixels: PixelBuffer, keptJPEG: KeptJPEG? = nil, inEncode: FrameConversion? = nil, deferredPlanes: Bool = false,
         merged: FrameMergeReport? = nil) {
        (self.pixels, self.keptJPEG, self.inEncode, self.deferredPlanes) = (pixels, keptJPEG, inEncode, deferredPlanes)
        self.merged = merged
    }
}
