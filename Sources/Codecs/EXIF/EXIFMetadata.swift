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
    /// `FNumber`, the aperture (a developed DNG carries its camera's).
    package var fNumber: Double?
    /// `FocalLength` in millimetres (a developed DNG carries its camera's).
    package var focalLength: Double?
    /// `ImageUniqueID`, at most 32 characters (longer values are cut).
    package var imageUniqueID: String?
    /// IFD0 `Artist`: who took the photo (ASCII; other characters become "?").
    package var artist: String?
    /// IFD0 `Copyright` (ASCII; other characters become "?").
    package var copyright: String?
    /// IFD0 `ImageDescription` (ASCII; other characters become "?").
    package var imageDescription: String?
    /// Exif `UserComment`, in any characters (see ``EXIFUserComment``).
    package var userComment: String?
    /// The GPS IFD; nil writes none.
    package var location: EXIFLocation?

    /// Metadata with only an orientation; every other field is nil.
    package init(orientation: Orientation = .up) {
        self.orientation = orientation
    }

    /// The unsigned-rational Exif tags this metadata sets — ExposureTime (0x829A), FNumber
    /// (0x829D), FocalLength (0x920A) — each checked positive and finite: one list for the
    /// libexif (JPEG, HEIC) and libtiff (TIFF, DNG) writers, so no format drops one.
    package func exposureRationals() throws(CodecError) -> [(tag: UInt16, value: Double)] {
        let fields: [(tag: UInt16, value: Double?, name: String)] = [
            (0x829A, exposureTime, "exposure time"), (0x829D, fNumber, "f-number"), (0x920A, focalLength, "focal length"),
        ]
        var result: [(tag: UInt16, value: Double)] = []
        for field in fields {
            guard let value = field.value else { continue }
            guard value > 0, value.isFinite else {
                throw .invalidArgument("\(field.name) \(value)\(field.tag == 0x829A ? " s" : "") is not positive")
            }
            result.append((field.tag, value))
        }
        return result
    }

    /// Takes the camera and exposure fields `source` has (make, model, exposure time, aperture,
    /// ISO, focal length, bias): a photo developed from a file says what the camera recorded.
    package mutating func carryCamera(from source: EXIFMetadata) {
        make = source.make ?? make
        model = source.model ?? model
        exposureTime = source.exposureTime ?? exposureTime
        fNumber = source.fNumber ?? fNumber
        isoSpeed = source.isoSpeed ?? isoSpeed
        focalLength = source.focalLength ?? focalLength
        exposureBias = source.exposureBias ?? exposureBias
    }
}
