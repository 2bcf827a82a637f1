import Imaging

/// A frame source whose driver can crop the picture before it is delivered.
package protocol HardwareCroppingSource: FrameSource {
    /// Starts (or restarts) streaming `format` frames of `crop`'s size, the driver cropping the
    /// picture to `crop` (driver coordinates).
    func startStreaming(format: FramePixelFormat, crop: PixelRect, discardingFirst: Int) async throws(PhotoCaptureError)
}
