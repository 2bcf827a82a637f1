import Codecs
import FoundationEssentials
import Imaging

extension PhotoProcessor {
    /// The describe stage: the EXIF fields of a photo of `size` — the written orientation, time,
    /// camera, a bracket member's exposure, a developed photo's source camera and what the app
    /// supplies — and the XMP: the app's, saying the written orientation like the EXIF, with the
    /// app's regions (faces) placed on the stored pixels (see ``PhotoRegion``).
    func describe(_ frame: Frame, size: PixelSize, resolved: ResolvedPhotoSettings, cameraName: String, captureDate: Date,
                  exposure: AppliedExposure?, sourceCamera: EXIFMetadata?) -> PhotoDescription {
        var exif = metadata(for: resolved, frame: frame, size: size, date: captureDate, cameraName: cameraName)
        if let exposure { exif.record(exposure) }
        if let sourceCamera { exif.carryCamera(from: sourceCamera) }
        let xmp = resolved.metadata.xmpPacket(storedSize: size, orientation: resolved.writtenOrientation)
        return PhotoDescription(exif: exif, xmp: xmp)
    }

    /// When the exposure of `frame` started, on the wall clock.
    static func captureDate(of frame: Frame) -> Date {
        Date(timeIntervalSinceNow: -Double(MonotonicClock.now() &- frame.timestampNanoseconds) / 1e9)
    }

    /// The EXIF fields of one photo.
    func metadata(for resolved: ResolvedPhotoSettings, frame: Frame, size: PixelSize, date: Date,
                  cameraName: String) -> EXIFMetadata {
        var exif = EXIFMetadata(orientation: resolved.writtenOrientation)
        exif.make = "photocap"
        exif.model = cameraName
        exif.software = Self.software
        exif.dateTimeOriginal = date
        exif.pixelSize = size
        exif.imageUniqueID = String(printf: "%016llx%016llx", UInt64(bitPattern: resolved.uniqueID), frame.sequence)
        resolved.metadata.apply(to: &exif)
        return exif
    }
}
