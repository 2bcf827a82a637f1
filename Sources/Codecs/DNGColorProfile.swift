/// How a camera's RAW values relate to colour: the DNG `ColorMatrix1` and
/// `CalibrationIlluminant1` tags.
public struct DNGColorProfile: Sendable, Equatable {
    /// CIE XYZ → camera RGB under ``calibrationIlluminant``, 3×3, row-major (DNG `ColorMatrix1`).
    public var colorMatrix: [Double]
    /// The EXIF LightSource code of the illuminant the matrix is for (DNG
    /// `CalibrationIlluminant1`); 21 is D65.
    public var calibrationIlluminant: Int

    /// EXIF LightSource code of CIE D65.
    public static let d65 = 21

    /// XYZ (D65) → linear sRGB, IEC 61966-2-1.
    static let xyzToLinearSRGB: [Double] = [
        3.2404542, -1.5371385, -0.4985314,
        -0.9692660, 1.8760108, 0.0415560,
        0.0556434, -0.2040259, 1.0572252,
    ]

    /// Creates a profile; `colorMatrix` must have nine finite values.
    public init(colorMatrix: [Double], calibrationIlluminant: Int = DNGColorProfile.d65) {
        self.colorMatrix = colorMatrix
        self.calibrationIlluminant = calibrationIlluminant
    }

    /// The documented default for a camera without a profile: its R, G and B are taken to be
    /// linear sRGB under D65 (the matrix is XYZ → linear sRGB).
    public static let sRGB = DNGColorProfile(colorMatrix: xyzToLinearSRGB)

    /// A camera whose channels see linear sRGB scaled by `gains` (red, green, blue): the sRGB
    /// matrix with each row scaled. Its neutral (``asShotNeutral(gains:)``) is `gains`.
    public static func sRGB(channelGains gains: [Double]) -> DNGColorProfile {
        precondition(gains.count == 3, "three channel gains")
        return DNGColorProfile(colorMatrix: xyzToLinearSRGB.enumerated().map { $0.element * gains[$0.offset / 3] })
    }
}
