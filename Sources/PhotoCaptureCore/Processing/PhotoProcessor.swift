import Codecs
import FoundationEssentials
import Imaging

/// Turns one frame into one photo in named stages: ``convert(_:resolved:cameraName:)`` (format,
/// crop and orientation transform in one pass, or the camera's MJPEG kept), ``describe(_:size:resolved:cameraName:captureDate:exposure:sourceCamera:)``
/// (EXIF and XMP), ``encode(_:described:resolved:)`` (one encode, with the reductions — previews
/// and thumbnail scaled from the converted photo — and the EXIF block made beside it), then the
/// ``CapturePhoto`` that is delivered.
struct PhotoProcessor {
    /// Software name written into EXIF.
    static let software = "photocap \(PhotocapVersion.current)"
    /// EXIF thumbnails are re-encoded at falling quality until they fit the 64 KiB APP1 segment.
    static let thumbnailQualities = [85, 70, 50, 30]
    /// An APP1 segment holds 65,533 bytes, six of which are the "Exif\0\0" header.
    static let maximumEXIFBlockSize = 65_527

    let encoders: EncoderPool

    /// Strips of a photo's JPEG encoded in parallel: one per core, none below about half a
    /// megapixel each, where starting threads costs more than it saves.
    static func jpegStrips(for size: PixelSize) -> Int {
        max(1, min(Processors.active, size.area / 500_000))
    }

    /// Every photo of one captured frame, each handed to `deliver` as soon as it is ready: the
    /// processed photo alone; or the RAW photo alone; or the RAW photo, then the processed photo
    /// developed from its DNG. A bracket member's `exposure` goes into the EXIF of each.
    func photos(from frame: Frame, neighbours: [Frame] = [], resolved: ResolvedPhotoSettings, device: CaptureDevice?,
                delivery: FrameDelivery, sequenceCount: Int = 1, exposure: AppliedExposure? = nil,
                deliver: (CapturePhoto) -> Void) throws(PhotoCaptureError) {
        let cameraName = device?.localizedName ?? "camera"
        guard resolved.rawPhoto != nil else {
            deliver(try process(frame, neighbours: neighbours, resolved: resolved, cameraName: cameraName, delivery: delivery,
                                sequenceCount: sequenceCount, exposure: exposure))
            return
        }
        let (raw, dng) = try rawPhoto(frame, resolved: resolved, cameraName: cameraName,
                                      calibration: device?.rawCalibration ?? .uncalibrated,
                                      delivery: delivery, sequenceCount: sequenceCount, exposure: exposure)
        deliver(raw)
        guard resolved.format.isProcessed else { return }
        let developed = try developed(dng, uniqueID: resolved.uniqueID)
        var photo = try process(try Self.frame(developed.image, like: frame, uniqueID: resolved.uniqueID), resolved: resolved,
                                cameraName: cameraName, delivery: delivery, sequenceCount: sequenceCount,
                                captureDate: raw.captureDate, exposure: exposure)
        photo.timings.development = developed.time
        photo.encodingRoute = .developed
        deliver(photo)
    }

    /// The photos of `frame` as ``photos(from:resolved:device:delivery:sequenceCount:exposure:deliver:)``
    /// makes them, each delivered as it is made; when one fails, it and every photo not yet made
    /// are delivered as the error (a processed photo is developed from the RAW photo before it),
    /// which is also returned.
    func results(from frame: Frame, neighbours: [Frame] = [], resolved: ResolvedPhotoSettings, device: CaptureDevice?,
                 delivery: FrameDelivery, sequenceCount: Int = 1, exposure: AppliedExposure? = nil,
                 deliver: (Result<CapturePhoto, PhotoCaptureError>) -> Void) -> PhotoCaptureError? {
        var made = 0
        do {
            try photos(from: frame, neighbours: neighbours, resolved: resolved, device: device, delivery: delivery, sequenceCount: sequenceCount,
                       exposure: exposure) { photo in
                made += 1
                deliver(.success(photo))
            }
            return nil
        } catch {
            let failure = error.attributed(to: resolved.uniqueID)
            let expected = resolved.rawPhoto != nil && resolved.format.isProcessed ? 2 : 1
            for _ in made..<max(made, expected) { deliver(.failure(failure)) }
            return failure
        }
    }

    /// The processed photo of `frame`, stage by stage: convert (format, crop, turn — or keep the
    /// camera's JPEG; with `neighbours`, each converted and merged), describe (EXIF and XMP),
    /// encode (with reductions and the EXIF block), deliver.
    ///
    /// `frame` is taken and let go of before the encode: a caller that hands over its last copy
    /// (a RAW file's development, whose banded frame holds the sensor data) has that memory
    /// freed once the frame is converted, not held beside the encoder's. A conversion done in
    /// the encode (a JPEG's or TIFF's bands) keeps the frame for itself.
    func process(_ frame: consuming Frame, neighbours: [Frame] = [], resolved planned: ResolvedPhotoSettings, cameraName: String,
                 delivery: FrameDelivery = FrameDelivery(), sequenceCount: Int = 1,
                 captureDate knownDate: Date? = nil,
                 exposure: AppliedExposure? = nil,
                 sourceCamera: EXIFMetadata? = nil) throws(PhotoCaptureError) -> CapturePhoto {
        let (converted, conversionTime) = try Self.timed { () throws(PhotoCaptureError) in
            neighbours.isEmpty ? try convert(frame, resolved: planned, cameraName: cameraName)
                : try merged(frame, neighbours: neighbours, resolved: planned, cameraName: cameraName)
        }
        let resolved = planned.frameMerging.framesPlanned > 1
            ? Self.recording(converted.merged, neighboursGiven: neighbours.count, in: planned) : planned
        let captureDate = knownDate ?? Self.captureDate(of: frame)
        let described = describe(frame, size: converted.pixels.size, resolved: resolved, cameraName: cameraName,
                                 captureDate: captureDate, exposure: exposure, sourceCamera: sourceCamera)
        let (sequence, timestamp) = (frame.sequence, frame.timestampNanoseconds)
        _ = consume frame
        let encoded = try encode(converted, described: described, resolved: resolved)
        return try deliverable(frameSequence: sequence, timestamp: timestamp, converted: converted, described: described,
                               encoded: encoded, conversionTime: conversionTime,
                               captureDate: captureDate, resolved: resolved, delivery: delivery, sequenceCount: sequenceCount)
    }

    /// The deliver stage: the photo as the app receives it, its typed EXIF fields those the
    /// describe stage wrote, its text dictionary libexif's reading of the EXIF block written (a
    /// block libexif cannot read is an encoding error, not an empty dictionary).
    private func deliverable(frameSequence: UInt64, timestamp: UInt64, converted: ConvertedFrame, described: PhotoDescription,
                             encoded: EncodedPhoto, conversionTime: Duration, captureDate: Date, resolved: ResolvedPhotoSettings, delivery: FrameDelivery,
                             sequenceCount: Int) throws(PhotoCaptureError) -> CapturePhoto {
        let entries = try Self.entries(ofWritten: encoded.exifBlock)
        return CapturePhoto(
            resolvedSettings: resolved, sequenceCount: sequenceCount, photoCount: resolved.expectedPhotoCount,
            frameSequence: frameSequence, timestamp: timestamp, frameDelivery: delivery,
            captureDate: captureDate,
            // Both keep the stored orientation, which the written one turns upright.
            pixelBuffer: converted.pixels.oriented(resolved.writtenOrientation),
            previewPixelBuffer: encoded.reductions.preview.map { PixelBuffer(image: $0).oriented(resolved.writtenOrientation) },
            embeddedThumbnailDimensions: encoded.reductions.thumbnail?.size, metadata: entries,
            exif: EXIFProperties(described.exif),
            isSensorOrientationCompensationApplied: resolved.isSensorOrientationCompensationApplied,
            writtenOrientation: resolved.writtenOrientation,
            timings: ProcessingTimings(conversion: conversionTime.seconds, scaling: encoded.scaling.seconds,
                                       encoding: encoded.encoding.seconds),
            encodingRoute: converted.keptJPEG?.route ?? (resolved.format == .uncompressed ? .none : .encoded),
            fileData: encoded.fileData)
    }

    /// Every tag of the EXIF block `block`, as libexif names and prints them
    /// (``CapturePhoto/metadata``); a block it cannot read is ``PhotoCaptureError/Code/encoding(_:)``.
    static func entries(ofWritten block: [UInt8]) throws(PhotoCaptureError) -> [String: String] {
        try PhotoCaptureError.encoding { () throws(CodecError) in try EXIFReader(data: block).entries }
    }

    static func timed<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> (T, Duration) {
        let start = ContinuousClock.now
        let value = try body()
        return (value, ContinuousClock.now - start)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
