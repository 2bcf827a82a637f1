import Codecs
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Imaging

extension CaptureDevice {
    /// How strongly the synthetic sensor's red, green and blue sites respond to light, green
    /// the strongest, as on real sensors: undoing it is the white balance.
    static let syntheticChannelGains: [Double] = [0.55, 1.0, 0.70]

    /// The synthetic camera's simulated sensor, exactly: its Bayer samples are
    /// `black + linear × gain × (white − black)`, where `linear` is the ``SyntheticScene``
    /// colour decoded from sRGB to linear light and `gain` is 0.55, 1.0 and 0.70 for red, green
    /// and blue. So the colour matrix is the sRGB one with its rows scaled by those gains, the
    /// neutral as shot is (0.55, 1, 0.7), and the black level is 1/16 of the range (16 at
    /// 8 bits, 256 at 12). Developing its RAW data with this calibration gives back the scene's
    /// colours.
    public static let syntheticRawCalibration = RawCalibration(
        colorMatrix: DNGMetadata.sRGBColorMatrix.enumerated().map { $0.element * syntheticChannelGains[$0.offset / 3] },
        calibrationIlluminant: DNGMetadata.d65, asShotNeutral: syntheticChannelGains, blackLevel: 1.0 / 16)

    /// `image` as the synthetic sensor delivers it in the Bayer `format`.
    static func syntheticBayerFrame(_ image: RGBImage, format: FramePixelFormat) throws(ImagingError) -> Frame {
        let bits = format.bitsPerSample
        let white = Double((1 << bits) - 1)
        let black = Double(syntheticRawCalibration.blackLevel(bits: bits))
        let curves = syntheticChannelGains.map { gain in
            (0..<256).map { value -> UInt16 in
                let encoded = Double(value) / 255
                let linear = encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
                return UInt16((black + linear * gain * (white - black)).rounded())
            }
        }
        return try FrameBuilder.bayerFrame(from: image, format: format, curves: curves)
    }
}
