import Imaging

/// Everything a DNG file says besides the sensor data: levels, colour, orientation, preview and
/// EXIF.
public struct DNGMetadata: Sendable {
    /// Make, model, software, capture time, exposure, ISO and unique ID; its `orientation` is
    /// the DNG `Orientation` tag — the whole correction a viewer applies, since the CFA data is
    /// never turned.
    public var exif: EXIFMetadata
    /// The DNG `UniqueCameraModel`: names the camera model for colour profiles.
    public var uniqueCameraModel: String
    /// ColorMatrix1 and CalibrationIlluminant1.
    public var colorProfile: DNGColorProfile = .sRGB
    /// The white balance at capture as the camera's neutral (DNG `AsShotNeutral`): red, green,
    /// blue, each in (0, 1].
    public var asShotNeutral: [Double] = [1, 1, 1]
    /// The sensor's black level, in sample units.
    public var blackLevel: Int = 0
    /// An XMP packet for IFD0, nil for none.
    public var xmp: String?
    /// The small RGB preview (DNG spec: IFD0, up to 256 pixels a side), stored as the CFA data
    /// is (the Orientation tag applies to it too). With nil the CFA image is IFD0 itself.
    public var thumbnail: RGBImage?

    /// Metadata with the documented colour defaults (``DNGColorProfile/sRGB``, neutral white
    /// balance, black level 0).
    public init(exif: EXIFMetadata, uniqueCameraModel: String) {
        self.exif = exif
        self.uniqueCameraModel = uniqueCameraModel
    }
}
