import Codecs

/// What a camera's RAW samples mean — written into every DNG it produces, and used when its RAW
/// data is developed.
///
/// V4L2 drivers report none of this, so cameras start from ``uncalibrated``; the synthetic
/// camera knows its simulated sensor exactly. An app with a profile for its camera sets it with
/// ``CaptureDevice/overridingRawCalibration(_:)``.
public struct RawCalibration: Sendable, Equatable {
    /// CIE XYZ → camera RGB under ``calibrationIlluminant``, 3×3, row-major (DNG `ColorMatrix1`).
    public var colorMatrix: [Double]
    /// The EXIF LightSource code of the illuminant the matrix is for (DNG
    /// `CalibrationIlluminant1`); 21 is D65.
    public var calibrationIlluminant: Int
    /// The camera's neutral — its red, green, blue response to white — under the capture light
    /// (DNG `AsShotNeutral`), each in (0, 1]: the white balance as shot.
    public var asShotNeutral: [Double]
    /// The black level as a fraction of the sample range (0 ≤ value < 1); a DNG stores it in
    /// sample units of the captured format's depth.
    public var blackLevel: Double

    /// Creates a calibration; see the properties for the meaning and ranges of the values.
    public init(colorMatrix: [Double], calibrationIlluminant: Int = 21, asShotNeutral: [Double] = [1, 1, 1],
                blackLevel: Double = 0) {
        self.colorMatrix = colorMatrix
        self.calibrationIlluminant = calibrationIlluminant
        self.asShotNeutral = asShotNeutral
        self.blackLevel = blackLevel
    }

    /// The documented default for a camera without a profile: its R, G and B are taken to be
    /// linear sRGB under D65 (ColorMatrix1 is XYZ → linear sRGB), a neutral white balance and a
    /// black level of 0.
    public static let uncalibrated = RawCalibration(colorMatrix: DNGMetadata.sRGBColorMatrix)

    /// The black level in sample units for samples of `bits` bits.
    func blackLevel(bits: Int) -> Int { Int((blackLevel * Double((1 << bits) - 1)).rounded()) }
}
