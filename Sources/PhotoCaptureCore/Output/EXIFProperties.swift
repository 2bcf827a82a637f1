import Codecs
import FoundationEssentials
import Imaging

/// The EXIF fields a camera app reads, typed: what was written into a photo
/// (``CapturePhoto/exif``), carried from the value the block was written from. The same block
/// as text, every tag, is ``CapturePhoto/metadata``; each field here is nil when its tag is absent.
public struct EXIFProperties: Sendable, Equatable {
    /// IFD0 `Orientation`: how to turn the stored pixels to show them upright (the text form is
    /// libexif's, "Right-top" for 6).
    public var orientation: Orientation?
    /// `PixelXDimension` × `PixelYDimension`: the stored pixel size.
    public var pixelDimensions: PixelSize?
    /// IFD0 `Make`.
    public var make: String?
    /// IFD0 `Model`.
    public var model: String?
    /// IFD0 `Software`.
    public var software: String?
    /// When the photo was taken: `DateTimeOriginal` with `SubSecTimeOriginal`, at
    /// `OffsetTimeOriginal` (in local time when a file has no offset).
    public var dateTimeOriginal: Date?
    /// `ExposureTime` in seconds.
    public var exposureTime: Double?
    /// `FNumber`, the aperture.
    public var fNumber: Double?
    /// `ISOSpeedRatings` (PhotographicSensitivity).
    public var isoSpeed: Int?
    /// `ExposureBiasValue` in EV (a bracket member's bias).
    public var exposureBias: Double?
    /// `FocalLength` in millimetres.
    public var focalLength: Double?

    /// No fields.
    public init() {}

    /// The fields of `written`, the metadata an EXIF block was written from.
    init(_ written: EXIFMetadata) {
        orientation = written.orientation
        pixelDimensions = written.pixelSize
        (make, model, software, dateTimeOriginal) = (written.make, written.model, written.software, written.dateTimeOriginal)
        (exposureTime, fNumber, isoSpeed) = (written.exposureTime, written.fNumber, written.isoSpeed)
        (exposureBias, focalLength) = (written.exposureBias, written.focalLength)
    }
}
