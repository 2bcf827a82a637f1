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
        let bits = frame.format.bitsPerSample
        let date = Self.captureDate(of: frame)
        var exif = metadata(for: resolved, frame: frame, size: frame.size, date: date, cameraName: cameraName)
        exif.orientation = raw.writtenOrientation
        exif.pixelSize = nil  // EXIF does not allow PixelX/YDimension in TIFF-based files
        if let exposure { exif.record(exposure) }
        var dng = DNGMetadata(exif: exif, uniqueCameraModel: cameraName)
        dng.colorMatrix = calibration.colorMatrix
        dng.calibrationIlluminant = calibration.calibrationIlluminant
        dng.asShotNeutral = calibration.asShotNeutral
        dng.blackLevel = calibration.blackLevel(bits: bits)
        dng.xmp = RawOrientationRecord(mounting: resolved.sensorMounting, rotationAngle: resolved.rotationAngle)
            .xmp(adding: resolved.metadata.xmp.map { XMPOrientation.setting($0, to: raw.writtenOrientation) })

        let bytes: [UInt8], thumbnail: RGBImage, preview: RGBImage?
        var development = Duration.zero, encoding = Duration.zero
        do {
            (thumbnail, development) = try Self.timed {
                try RAWDeveloper.preview(of: frame, metadata: dng, fitting: raw.embeddedThumbnailDimensions)
            }
            // A RAW photo alone carries the preview; with a processed photo that one does.
            let previewBox = resolved.format == .dng ? resolved.previewDimensions : nil
            let (reduced, previewTime) = try Self.timed {
                try previewBox.map { try RAWDeveloper.preview(of: frame, metadata: dng, fitting: $0) }
            }
            (preview, development) = (reduced, development + previewTime)
            dng.thumbnail = thumbnail
            (bytes, encoding) = try Self.timed { try DNGFile.encode(frame, metadata: dng) }
        } catch {
            throw PhotoCaptureError(encodingFailure: error, uniqueID: id)
        }
        let pixels: PlanarImage, previewPixels: PlanarImage?
        do {
            pixels = try thumbnail.planarImage()
            previewPixels = try preview?.planarImage()
        } catch {
            throw PhotoCaptureError(.imaging(error), uniqueID: id)
        }
        let details = RawPhotoDetails(
            frame: delivered, cfaPattern: frame.format.bayerPattern!, bitsPerSample: bits,
            storedBitsPerSample: bits == 8 ? 8 : 16, blackLevel: dng.blackLevel, whiteLevel: (1 << bits) - 1,
            calibration: calibration, writtenOrientation: raw.writtenOrientation, thumbnailDimensions: thumbnail.size)
        var timings = ProcessingTimings(conversion: 0, scaling: 0, encoding: encoding.seconds)
        timings.development = development.seconds
        let written = Self.written(exif)
        let photo = CapturePhoto(
            resolvedSettings: resolved, sequenceCount: sequenceCount, photoCount: resolved.expectedPhotoCount,
            frameSequence: frame.sequence, timestamp: frame.timestampNanoseconds, frameDelivery: delivery,
            captureDate: date, pixelBuffer: PixelBuffer(image: pixels), previewPixelBuffer: previewPixels.map(PixelBuffer.init),
            embeddedThumbnailDimensions: thumbnail.size, metadata: written?.entries ?? [:],
            exif: written.map(EXIFProperties.init) ?? EXIFProperties(),
            isSensorOrientationCompensationApplied: false, writtenOrientation: raw.writtenOrientation,
            timings: timings, encodingRoute: .dng, fileData: Data(bytes), isRawPhoto: true, rawDetails: details)
        return (photo, bytes)
    }

    /// `dng` developed by LibRaw (as stored, not turned), and how long that took.
    func developed(_ dng: [UInt8], uniqueID: Int64?) throws(PhotoCaptureError) -> (image: RGBImage, time: Double) {
        do {
            let (image, time) = try Self.timed { try RAWDeveloper(data: dng).develop() }
            return (image, time.seconds)
        } catch let error as CodecError {
            throw PhotoCaptureError(.rawDevelopmentFailed(error), uniqueID: uniqueID)
        } catch {
            throw PhotoCaptureError(encodingFailure: error, uniqueID: uniqueID)
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

    /// The EXIF fields a DNG carries, read from an EXIF block of the same metadata: libexif
    /// reads only the first 64 KiB of a file, and a DNG's IFD0 comes last.
    static func written(_ exif: EXIFMetadata) -> EXIFReader? {
        try? EXIFReader(data: EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: nil))
    }
}
