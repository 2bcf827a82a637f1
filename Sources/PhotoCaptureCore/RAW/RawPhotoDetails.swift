import Imaging

/// What the DNG of a RAW photo holds, and the Bayer frame it was made from.
public struct RawPhotoDetails: Sendable {
    /// The Bayer frame as the camera delivered it; the DNG stores its samples unchanged (CSI-2
    /// packed ones unpacked, one per 16-bit word).
    public let frame: Frame
    /// The colour filter tile (DNG `CFAPattern`).
    public let cfaPattern: FramePixelFormat.BayerPattern
    /// Significant bits per sample; `WhiteLevel` is 2^bits − 1.
    public let bitsPerSample: Int
    /// The DNG `BitsPerSample`: the sample container, 8 or 16 (10- and 12-bit samples stay in
    /// the 16-bit little-endian words V4L2 delivers them in, or are unpacked into them).
    public let storedBitsPerSample: Int
    /// The DNG `BlackLevel`, in sample units.
    public let blackLevel: Int
    /// The DNG `WhiteLevel`.
    public let whiteLevel: Int
    /// The calibration written: ColorMatrix1, CalibrationIlluminant1, AsShotNeutral.
    public let calibration: RawCalibration
    /// The DNG `Orientation`: the whole correction; the CFA data is never turned.
    public let writtenOrientation: Orientation
    /// The size of the developed preview in the DNG's IFD0.
    public let thumbnailDimensions: PixelSize
}
