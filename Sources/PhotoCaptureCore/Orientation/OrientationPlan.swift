import Imaging

/// What happens to orientation for one output: which transform is applied to the pixels and
/// which orientation is written into the file. The one place where the orientation rule of
/// <doc:Architecture> is evaluated.
public struct OrientationPlan: Hashable, Sendable {
    /// Applied to the frame's pixels.
    public let pixelTransform: Orientation
    /// Written as EXIF/TIFF Orientation and HEIF irot/imir.
    public let writtenOrientation: Orientation
    /// Whether the sensor mounting was compensated in the pixels.
    public let isSensorCompensationApplied: Bool

    /// The plan for RAW (Bayer, DNG) output: the sensor data is never transformed, whatever the
    /// mode — compensation applies to processed photos only — so the metadata (the DNG
    /// Orientation tag) carries the whole correction. The one place this rule lives.
    public static func raw(mounting: SensorMounting, rotationAngle: Int) -> OrientationPlan {
        OrientationPlan(mounting: mounting, rotationAngle: rotationAngle, mode: .off)
    }

    /// The plan for a processed (JPEG/HEIC/TIFF/pixel-buffer) photo.
    ///
    /// upright = rotate_cw(deviceRotation) ∘ mountingCompensation(frame); the mode decides how
    /// much of it goes into the pixels and how much into the metadata.
    public init(mounting: SensorMounting, rotationAngle: Int, mode: OrientationCompensation) {
        let mount = mounting.compensation
        let device = Orientation.clockwise(degrees: rotationAngle)
        let whole = mounting.upright(rotationAngle: rotationAngle)
        switch mode {
        case .sensor: (pixelTransform, writtenOrientation) = (mount, device)
        case .off: (pixelTransform, writtenOrientation) = (.up, whole)
        case .upright: (pixelTransform, writtenOrientation) = (whole, .up)
        }
        isSensorCompensationApplied = mode != .off
    }
}
