#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Imaging

/// EXIF fields photocap writes.
public struct EXIFMetadata: Sendable, Equatable {
    /// Camera maker (IFD0 `Make`).
    public var make: String?
    /// Camera model (IFD0 `Model`).
    public var model: String?
    /// Writing software (IFD0 `Software`).
    public var software: String?
    /// When the photo was taken; written as `DateTimeOriginal`, `SubSecTimeOriginal` and
    /// `OffsetTimeOriginal` in the process's local time zone, and as `DateTime`/`SubSecTime`/
    /// `OffsetTime` too.
    public var dateTimeOriginal: Date?
    /// IFD0 `Orientation` (and IFD1 `Orientation` when a thumbnail is present, same value).
    public var orientation: Orientation
    /// `PixelXDimension` / `PixelYDimension`: the stored pixel size.
    public var pixelSize: PixelSize?
    /// Exposure time in seconds (`ExposureTime`).
    public var exposureTime: Double?
    /// `ISOSpeedRatings` (PhotographicSensitivity).
    public var isoSpeed: Int?
    /// `ExposureBiasValue` in EV, for bracket members.
    public var exposureBias: Double?
    /// `ImageUniqueID`, at most 32 characters (longer values are cut).
    public var imageUniqueID: String?

    /// Metadata with only an orientation; every other field is nil.
    public init(orientation: Orientation = .up) {
        self.orientation = orientation
    }
}
