import Imaging

/// How a photo was framed: the aspect ratio and zoom it was cropped to, the part of the frame
/// kept, and whether the camera's driver or photocap's conversion pass did the cropping.
///
/// Part of ``ResolvedPhotoSettings``. The ratio is the upright picture's (what a viewer shows);
/// ``sensorCrop`` is where that picture lies in the frame as the sensor delivers it, so a 3:4
/// portrait photo from a landscape-mounted sensor is a 4:3 rectangle here.
///
/// RAW data is never cropped, as it is never turned: a DNG is always the whole frame (its
/// framing is uncropped), and the processed photo of a RAW + processed request is cropped from
/// the whole frame in software.
public struct PhotoFraming: Sendable, Equatable {
    /// The requested shape of the upright photo; nil keeps the frame's own shape.
    public let aspectRatio: AspectRatio?
    /// The zoom factor: the crop is this many times narrower than the largest one of the ratio.
    public let videoZoomFactor: Double
    /// The frame size before any crop (sensor orientation): the format's size as resolved.
    public let uncroppedFrameDimensions: PixelSize
    /// The rectangle of the uncropped frame that becomes the photo (even origin and sides).
    public let sensorCrop: PixelRect
    /// Who cropped.
    public let cropMethod: CropMethod
    /// The rectangle given to the driver (VIDIOC_S_SELECTION, V4L2_SEL_TGT_CROP, in the driver's
    /// coordinates), nil unless ``cropMethod`` is ``CropMethod/hardware``.
    public let hardwareCropRect: PixelRect?
}
