/// Where a photo's crop happened.
public enum CropMethod: String, Sendable, Hashable {
    /// No crop: the whole frame is the photo.
    case none
    /// photocap cropped in its one conversion pass, together with the format conversion and the
    /// orientation transform; the camera delivered whole frames.
    case software
    /// The camera's driver cropped (V4L2 selection API): frames arrive at the crop's size.
    case hardware
}
