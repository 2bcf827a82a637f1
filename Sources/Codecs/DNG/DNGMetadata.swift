import Imaging

/// Everything a DNG file says besides the sensor data: levels, colour, orientation, preview and
/// EXIF.
package struct DNGMetadata: Sendable {
    /// XYZ (D65) → linear sRGB (IEC 61966-2-1): the colour matrix of a camera whose R, G and B
    /// are linear sRGB, the documented default for cameras without a profile.
    package static let sRGBColorMatrix: [Double] = [
        3.2404542, -1.5371385, -0.4985314,
        -0.9692660, 1.8760108, 0.0415560,
        0.0556434, -0.2040259, 1.0572252,
    ]
    /// The EXIF LightSource code of CIE D65.
    package static let d65 = 21

    /// Make, model, software, capture time, exposure, ISO and unique ID; its `orientation` is
    /// the DNG `Orientation` tag — the whole correction a viewer applies, since the CFA data is
    /// never turned.
    package var exif: EXIFMetadata
    /// The DNG `UniqueCameraModel`: names the camera model for colour profiles.
    package var uniqueCameraModel: String
    /// CIE XYZ → camera RGB under ``calibrationIlluminant``, 3×3, row-major (`ColorMatrix1`).
    package var colorMatrix: [Double] = DNGMetadata.sRGBColorMatrix
    /// The EXIF LightSource code of the illuminant ``colorMatrix`` is for
    /// (`CalibrationIlluminant1`); 21 is D65.
    package var calibrationIlluminant: Int = DNGMetadata.d65
    /// The white balance at capture as the camera's neutral (`AsShotNeutral`): red, green,
    /// blue, each in (0, 1].
    package var asShotNeutral: [Double] = [1, 1, 1]
    /// The sensor's black level, in sample units (`BlackLevel`).
    package var blackLevel: Int = 0
    /// An XMP packet for IFD0, nil for none.
    package var xmp: String?
    /// The small RGB preview (IFD0, by the DNG specification up to about 256 pixels a side),
    /// stored as the CFA data is: the Orientation tag applies to it too. With nil the CFA image
    /// is IFD0 itself.
    package var thumbnail: RGBImage?

    /// Metadata with the documented colour defaults: ``sRGBColorMatrix`` under D65, a neutral
    /// white balance, black level 0.
    package init(exif: EXIFMetadata, uniqueCameraModel: String) {
        self.exif = exif
        self.uniqueCameraModel = uniqueCameraModel
    }
}
