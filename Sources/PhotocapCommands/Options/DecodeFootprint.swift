import PhotoCapture

/// What each command holds in memory per pixel of the largest picture it decodes, stated in
/// one place: with the default `--max-pixels`, a picture whose decode times this does not fit
/// in the memory the process may use is refused from its header (``PixelBudgetOptions``).
package struct DecodeFootprint: Sendable {
    /// Bytes held at once per pixel of the picture.
    package let bytesPerPixel: Int

    /// The picture as 8-bit RGB (3); the golden (3), decoded whole when it is not read by rows,
    /// or a TIFF golden's file, held while its rows are read; and libtiff's copy of a TIFF's
    /// coded strip while it is decoded (up to 3, for a picture coded as one strip). Judged from
    /// the header, before the golden's kind is known: the most it may take.
    package static let compare = DecodeFootprint(bytesPerPixel: 9)
    /// The decoded picture and its turned copy (3 + 3).
    package static let orient = DecodeFootprint(bytesPerPixel: 6)
    /// A DNG's development: ``RawDevelopment/bytesPerPixel(developing:)`` of the size its
    /// header declares; LibRaw's whole development's when the header does not say.
    package static func develop(fileAt path: String) -> DecodeFootprint {
        let size = RawDevelopment.declaredSize(ofFileAt: path) ?? PixelSize(width: 1, height: 1)
        return DecodeFootprint(bytesPerPixel: RawDevelopment.bytesPerPixel(developing: size))
    }

    /// A frame, its upright copy (3 + 3) and the encoder's planes (2).
    package static let capture = DecodeFootprint(bytesPerPixel: 8)
}
