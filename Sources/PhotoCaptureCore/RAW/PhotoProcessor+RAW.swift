import Codecs
import FoundationEssentials
import Imaging

extension PhotoProcessor {
    /// The RAW photo of `frame`: a DNG with the Bayer samples as delivered, the whole
    /// orientation correction in its Orientation tag (``ResolvedRawPhotoSettings``), the
    /// device's calibration, a developed preview, the orientation split in XMP and, for a
    /// bracket member, the exposure read back. CSI-2 packed samples are unpacked once, here, and
    /// then stored, previewed and developed as `RG10`/`RG12` samples are.
    func rawPhoto(_ delivered: Frame, resolved: ResolvedPhotoSettings, cameraName: String, calibration: RawCalibration,
                  delivery: FrameDelivery, sequenceCount: Int,
                  exposure: AppliedExposure? = nil) throws(PhotoCaptureError) -> (CapturePhoto, [UInt8]) {
        let raw = resolved.rawPhoto!
        let id = resolved.uniqueID
        let frame: Frame
        do { frame = try delivered.unpackedCSI2() } catch { throw PhotoCaptureError(.imaging(error), uniqueID: id) }
        let date = Self.captureDate(of: frame)
        let exif = rawEXIF(frame, resolved: resolved, cameraName: cameraName, date: date, exposure: exposure)
        var dng = rawDescription(frame, exif: exif, resolved: resolved, cameraName: cameraName, calibration: calibration)
        let encoded = try encodeRaw(frame, describing: &dng, resolved: resolved)
        let pixels: PlanarImage, previewPixels: PlanarImage?
        do {
            pixels = try encoded.thumbnail.planarImage()
            previewPixels = try encoded.preview?.planarImage()
        } catch {
            throw PhotoCaptureError(.imaging(error), uniqueID: id)
        }
        let bits = frame.format.bitsPerSample
        let details = RawPhotoDetails(
            frame: delivered, cfaPattern: frame.format.bayerPattern!, bitsPerSample: bits,
            storedBitsPerSample: bits == 8 ? 8 : 16, blackLevel: dng.blackLevel, whiteLevel: (1 << bits) - 1,
            calibration: calibration, writtenOrientation: raw.writtenOrientation, thumbnailDimensions: encoded.thumbnail.size)
        var timings = ProcessingTimings(conversion: 0, scaling: 0, encoding: encoded.encoding.seconds)
        timings.development = encoded.development.seconds
        // The text dictionary from an EXIF block of the same metadata, not from the DNG: libexif
        // reads only the first 64 KiB of a file, and a DNG's IFD0 comes last.
        let entries = try Self.entries(ofWritten: PhotoCaptureError.encoding { () throws(CodecError) in
            try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: nil)
        })
        let photo = CapturePhoto(
            resolvedSettings: resolved, sequenceCount: sequenceCount, photoCount: resolved.expectedPhotoCount,
            frameSequence: frame.sequence, timestamp: frame.timestampNanoseconds, frameDelivery: delivery,
            captureDate: date, pixelBuffer: PixelBuffer(image: pixels).oriented(raw.writtenOrientation),
            previewPixelBuffer: previewPixels.map { PixelBuffer(image: $0).oriented(raw.writtenOrientation) },
            embeddedThumbnailDimensions: encoded.thumbnail.size, metadata: entries,
            exif: EXIFProperties(exif),
            isSensorOrientationCompensationApplied: false, writtenOrientation: raw.writtenOrientation,
            timings: timings, encodingRoute: .dng, fileData: Data(encoded.bytes), isRawPhoto: true, rawDetails: details)
        return (photo, encoded.bytes)
    }

    /// The describe stage of a RAW photo, its EXIF part: the whole orientation correction in the
    /// Orientation tag, no pixel dimensions (EXIF does not allow PixelX/YDimension in TIFF-based
    /// files), and a bracket member's exposure.
    private func rawEXIF(_ frame: Frame, resolved: ResolvedPhotoSettings, cameraName: String, date: Date,
                         exposure: AppliedExposure?) -> EXIFMetadata {
        var exif = metadata(for: resolved, frame: frame, size: frame.size, date: date, cameraName: cameraName)
        exif.orientation = resolved.rawPhoto!.writtenOrientation
        exif.pixelSize = nil
        if let exposure { exif.record(exposure) }
        return exif
    }

    /// The describe stage of a RAW photo, its DNG part: `exif`, the device's calibration, and
    /// the orientation split in XMP beside the app's packet.
    private func rawDescription(_ frame: Frame, exif: EXIFMetadata, resolved: ResolvedPhotoSettings, cameraName: String,
                                calibration: RawCalibration) -> DNGMetadata {
        var dng = DNGMetadata(exif: exif, uniqueCameraModel: cameraName)
        dng.colorMatrix = calibration.colorMatrix
        dng.calibrationIlluminant = calibration.calibrationIlluminant
        dng.asShotNeutral = calibration.asShotNeutral
        dng.blackLevel = calibration.blackLevel(bits: frame.format.bitsPerSample)
        dng.xmp = RawOrientationRecord(mounting: resolved.sensorMounting, rotationAngle: resolved.rotationAngle)
            .xmp(adding: resolved.metadata.xmp.map { XMPOrientation.setting($0, to: resolved.rawPhoto!.writtenOrientation) })
        return dng
    }

    /// The encode stage of a RAW photo: the developed thumbnail (stored in `dng`) and, for a RAW
    /// photo alone, the preview, then the DNG of the samples as delivered.
    private func encodeRaw(_ frame: Frame, describing dng: inout DNGMetadata, resolved: ResolvedPhotoSettings)
        throws(PhotoCaptureError) -> (bytes: [UInt8], thumbnail: RGBImage, preview: RGBImage?, development: Duration, encoding: Duration) {
        do throws(CodecError) {
            let (thumbnail, thumbnailTime) = try Self.timed { [dng] () throws(CodecError) in
                try RAWDeveloper.preview(of: frame, metadata: dng, fitting: resolved.rawPhoto!.embeddedThumbnailDimensions)
            }
            // A RAW photo alone carries the preview; with a processed photo that one does.
            let previewBox = resolved.format == .dng ? resolved.previewDimensions : nil
            let (preview, previewTime) = try Self.timed { [dng] () throws(CodecError) in
                try previewBox.map { (box) throws(CodecError) in try RAWDeveloper.preview(of: frame, metadata: dng, fitting: box) }
            }
            dng.thumbnail = thumbnail
            let (bytes, encoding) = try Self.timed { [dng] () throws(CodecError) in try DNGFile.encode(frame, metadata: dng) }
            return (bytes, thumbnail, preview, thumbnailTime + previewTime, encoding)
        } catch {
            throw PhotoCaptureError(.encoding(error), uniqueID: resolved.uniqueID)
        }
    }

    /// `dng` developed by LibRaw (as stored, not turned), and how long that took.
    func developed(_ dng: consuming [UInt8], uniqueID: Int64?) throws(PhotoCaptureError) -> (image: RGBImage, time: Double) {
        // Timed here, not in a closure: the bytes are handed to LibRaw, which a closure's
        // capture would not allow.
        let start = ContinuousClock.now
        do throws(CodecError) {
            let image = try RAWDeveloper(data: consume dng).develop()
            return (image, (ContinuousClock.now - start).seconds)
        } catch {
            throw PhotoCaptureError(.rawDevelopmentFailed(error), uniqueID: uniqueID)
        }
    }

    /// A developed image as an RGB frame with `frame`'s sequence number and timestamp, for the
    /// normal conversion pass; it must have the CFA frame's size, which the crop refers to.
    static func frame(_ image: RGBImage, like frame: Frame, uniqueID: Int64?) throws(PhotoCaptureError) -> Frame {
        guard image.size == frame.size else {
            throw PhotoCaptureError(.developedSizeMismatch(developed: image.size, frame: frame.size), uniqueID: uniqueID)
        }
        do {
            return try Frame(format: .rgb24, size: image.size, storage: FrameStorage(copying: image.pixels),
                             sequence: frame.sequence, timestampNanoseconds: frame.timestampNanoseconds)
        } catch {
            throw PhotoCaptureError(.imaging(error), uniqueID: uniqueID)
        }
    }
}
