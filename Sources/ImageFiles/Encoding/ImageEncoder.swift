import Codecs
import FoundationEssentials
import Imaging

/// Writes pictures as image files for code that keeps pictures of its own — references,
/// difference images — beside the photos: lossless, so a picture read back is the same pixels.
public enum ImageEncoder {
    /// `image` as an 8-bit RGB PNG (libpng), no metadata.
    public static func pngData(_ image: RGBImage) throws(CodecError) -> Data {
        Data(try PNGFile.encode(image))
    }
}
