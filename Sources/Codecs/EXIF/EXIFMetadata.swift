#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Imaging

/// EXIF fields photocap writes.
package struct EXIFMetadata: Sendable, Equatable {
    /// Camera maker (IFD0 `Make`).
    package var make: String?
    /// Camera model (IFD0 `Model`).
    package var model: String?
    /// Writing software (IFD0 `Software`).
    package var software: String?
    /// When the photo was taken; written as `DateTimeOriginal`, `SubSecTimeOriginal` and
    /// `OffsetTimeOriginal` in the process's local time zone, and as `DateTime`/`SubSecTime`/
    /// `OffsetTime` too.
    package var dateTimeOriginal: Date?
    /// IFD0 `Orientation` (and IFD1 `Orientation` when a thumbnail is present, same value).
    package var orientation: Orientation
    /// `PixelXDimension` / `PixelYDimension`: the stored pixel size.
    package var pixelSize: PixelSize?
    /// Exposure time in seconds (`ExposureTime`).
    package var exposureTime: Double?
    /// `ISOSpeedRatings` (PhotographicSensitivity).
    package var isoSpeed: Int?
    /// `ExposureBiasValue` in EV, for bracket members.
    package var exposureBias: Double?
    /// `ImageUniqueID`, at most 32 characters (longer values are cut).
    package var imageUniqueID: String?

    /// Metadata with only an orientation; every other field is nil.
    package init(orientation: Orientation = .up) {
        self.orientation = orientation
    }
}
