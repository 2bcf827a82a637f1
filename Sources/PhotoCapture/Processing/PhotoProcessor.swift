import Codecs
import FoundationEssentials
import Imaging

/// Turns one frame into one photo: one conversion pass (format, crop and orientation transform
/// together), previews scaled from its result, one encode, metadata.
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

    /// The small images scaled from the photo.
    private struct Reductions {
        var preview: PlanarImage?
        var thumbnail: PlanarImage?
    }

    /// Every photo of one captured frame, each handed to `deliver` as soon as it is ready: the
    /// processed photo alone; or the RAW photo alone; or the RAW photo, then the processed photo
    /// developed from its DNG. A bracket member's `exposure` goes into the EXIF of each.
    func photos(from frame: Frame, resolved: ResolvedPhotoSettings, device: CaptureDevice?,
                delivery: FrameDelivery, sequenceCount: Int = 1, exposure: AppliedExposure? = nil,
                deliver: (CapturePhoto) -> Void) throws(PhotoCaptureError) {
        let cameraName = device?.localizedName ?? "camera"
        guard resolved.rawPhoto != nil else {
            deliver(try process(frame, resolved: resolved, cameraName: cameraName, delivery: delivery, sequenceCount: sequenceCount,
                                exposure: exposure))
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
    func results(from frame: Frame, resolved: ResolvedPhotoSettings, device: CaptureDevice?,
                 delivery: FrameDelivery, sequenceCount: Int = 1, exposure: AppliedExposure? = nil,
                 deliver: (Result<CapturePhoto, PhotoCaptureError>) -> Void) -> PhotoCaptureError? {
        var made = 0
        do {
            try photos(from: frame, resolved: resolved, device: device, delivery: delivery, sequenceCount: sequenceCount,
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

    /// The processed photo of `frame`: one conversion pass (format, crop, turn), then one encode
    /// with EXIF and thumbnail; an MJPEG frame is kept or turned losslessly where no pixel changes.
    func process(_ frame: Frame, resolved: ResolvedPhotoSettings, cameraName: String,
                 delivery: FrameDelivery = FrameDelivery(), sequenceCount: Int = 1,
                 captureDate knownDate: Date? = nil,
                 exposure: AppliedExposure? = nil,
                 sourceCamera: EXIFMetadata? = nil) throws(PhotoCaptureError) -> CapturePhoto {
        let id = resolved.uniqueID
        let conversionStart = ContinuousClock.now
        let pixels: PixelBuffer
        // A camera JPEG that needs no pixel change, or only an exact lossless turn, is kept.
        let cameraJPEG: (bytes: [UInt8], route: EncodingRoute)?
        // A JPEG's conversion is done by the strip encode, band by band, each band just before
        // it is encoded (in cache), quarter turns too (a band of frame columns, a block of rows
        // at a time); other formats convert the whole frame here.
        var fusedConversion: FrameConversion?
        // Encoded from band buffers, the photo's planes made only if asked for
        // (see encodesFromBands(_:framesAreFreeToKeep:)).
        var deferredPlanes = false
        do {
            // An MJPEG frame's bytes, copied out of the driver's buffer once.
            let compressed = frame.format.isCompressed ? frame.storage.withUnsafeBytes { [UInt8]($0) } : nil
            cameraJPEG = try compressed.flatMap { (jpeg) throws in try Self.keptCameraJPEG(jpeg, frame, resolved) }
            if let cameraJPEG {
                pixels = PixelBuffer(image: try JPEGDecoder().decodePlanar(cameraJPEG.bytes))
            } else {
                let source = try compressed.map { (jpeg) throws in try Self.decoded(jpeg, of: frame) } ?? frame
                let converter = FrameConverter()
                let conversion = try converter.prepare(source, crop: resolved.cropRect, applying: resolved.pixelTransform)
                if resolved.format == .jpeg {
                    fusedConversion = conversion
                    deferredPlanes = Self.encodesFromBands(resolved, framesAreFreeToKeep: conversion.isFreeToKeep)
                    pixels = deferredPlanes ? PixelBuffer(deferring: conversion) : PixelBuffer(image: try PlanarImage(size: conversion.size))
                } else {
                    pixels = PixelBuffer(image: try converter.convert(conversion))
                }
            }
        } catch let error as ImagingError {
            throw PhotoCaptureError(.imaging(error), uniqueID: id)
        } catch CodecError.pixelBudgetExceeded(_, let size, let limit) {
            // Not a damaged frame: one that declares more than the budget allows.
            throw PhotoCaptureError(.imaging(.pixelBudgetExceeded(size: size, limit: limit)), uniqueID: id)
        } catch {
            throw PhotoCaptureError(.corruptFrames(device: cameraName, count: 1), uniqueID: id)
        }
        let conversion = ContinuousClock.now - conversionStart
        let captureDate = knownDate ?? Self.captureDate(of: frame)
        var exif = metadata(for: resolved, frame: frame, size: pixels.size, date: captureDate, cameraName: cameraName)
        if let exposure { exif.record(exposure) }
        if let sourceCamera { exif.carryCamera(from: sourceCamera) }

        // The app's XMP, saying the written orientation like the EXIF.
        let xmp = resolved.metadata.xmp.map { XMPOrientation.setting($0, to: resolved.writtenOrientation) }
        func withXMP(_ jpeg: [UInt8]) throws(CodecError) -> Data {
            Data(try xmp.map { (packet) throws(CodecError) in try JPEGFile.insertingXMP(packet, into: jpeg) } ?? jpeg)
        }
        let fileData: Data?, exifBlock: [UInt8], reductions: Reductions
        var scaling = Duration.zero, encoding = Duration.zero
        do {
            if resolved.format == .jpeg, let cameraJPEG {
                let ((reduced, block), sideTime) = try Self.timed { () throws -> (Reductions, [UInt8]) in
                    let reductions = try reduce(pixels, resolved)
                    return (reductions, try jpegEXIFBlock(exif, thumbnail: reductions.thumbnail))
                }
                (reductions, exifBlock, scaling) = (reduced, block, sideTime)
                fileData = try withXMP(try JPEGFile.insertingEXIF(exifBlock, into: cameraJPEG.bytes))
            } else if resolved.format == .jpeg {
                // The main encode in strips on every core; previews, thumbnail and EXIF beside it,
                // on the same threads (not in a second concurrentPerform around it: nested, the
                // strips would be encoded one after another).
                // The EXIF and XMP segments go in as the strips are joined: one copy of the photo.
                // Each strip converts its own rows as it goes; the side work starts once all are.
                // The thumbnail too, from each band while it is in cache (without a preview, which
                // it would otherwise be scaled from).
                let conversion = fusedConversion, strips = Self.jpegStrips(for: pixels.size)
                let thumbnail = try fusedConversion == nil || resolved.previewDimensions != nil ? nil
                    : resolved.embeddedThumbnailDimensions.flatMap { (size) throws(ImagingError) in
                        try BandedReduction(from: pixels.size, to: size, parts: JPEGEncoder.stripRows(for: pixels.size, strips: strips))
                    }
                // Rows converted into `target`, whose first row is `firstRow`: the planes, or a band's buffer.
                func convert(_ rows: Range<Int>, into target: PlanarImage, firstRow: Int) throws(CodecError) {
                    do throws(ImagingError) { try conversion?.convert(rows: rows, into: target, firstRow: firstRow) } catch { throw .imaging(error) }
                    thumbnail?.add(rows: rows, of: target, firstRow: firstRow)
                }
                var side: Result<((Reductions, [UInt8]), Duration), any Error>?
                func reduceAndDescribe() {
                    side = Result { try Self.timed { () throws -> (Reductions, [UInt8]) in
                        let reductions = try thumbnail.map { Reductions(preview: nil, thumbnail: $0.finish()) } ?? reduce(pixels, resolved)
                        return (reductions, try jpegEXIFBlock(exif, thumbnail: reductions.thumbnail))
                    } }
                }
                func segments() throws(CodecError) -> [UInt8] {
                    // A failed side is thrown below, where its error keeps its type.
                    guard case .success(((_, let block), _)) = side else { return [] }
                    return try JPEGFile.exifSegment(block) + (xmp.map { (packet) throws(CodecError) in try JPEGFile.xmpSegment(packet) } ?? [])
                }
                let (jpeg, encodeTime) = try Self.timed { try encoders.withJPEGEncoder { (encoder) throws(CodecError) in
                    if deferredPlanes {
                        return try encoder.encodeInStrips(size: pixels.size, quality: resolved.quality, strips: strips,
                                                          converting: convert, alongside: reduceAndDescribe, segments: segments,
                                                          whole: { pixels.image })
                    }
                    let image = pixels.image
                    return try encoder.encodeInStrips(image, quality: resolved.quality, strips: strips,
                                                      preparing: conversion == nil ? nil : { (rows) throws(CodecError) in
                                                          try convert(rows, into: image, firstRow: 0)
                                                      }, alongside: reduceAndDescribe, segments: segments)
                } }
                let (sideWork, sideTime) = try side!.get()
                (reductions, exifBlock) = sideWork
                (scaling, encoding) = (sideTime, encodeTime)
                fileData = jpeg
            } else {
                (reductions, scaling) = try Self.timed { try reduce(pixels, resolved) }
                let started = ContinuousClock.now
                exifBlock = try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: nil)
                switch resolved.format {
                case .heic:
                    let encoder = try HEICEncoder(preset: HEICEncoderPreset(resolved.heicEncodingSpeed))
                    fileData = Data(try encoder.encode(pixels.image, quality: resolved.quality, orientation: resolved.writtenOrientation,
                                                       thumbnail: reductions.thumbnail, exif: exifBlock, xmp: xmp))
                case .tiff:
                    fileData = Data(try TIFFFile.encode(rgb: try pixels.image.rgbBytes(), size: pixels.size, metadata: exif, xmp: xmp))
                default:
                    fileData = nil
                }
                encoding = ContinuousClock.now - started
            }
        } catch {
            throw PhotoCaptureError(encodingFailure: error, uniqueID: id)
        }
        let written = try? EXIFReader(data: exifBlock)

        return CapturePhoto(
            resolvedSettings: resolved, sequenceCount: sequenceCount, photoCount: resolved.expectedPhotoCount,
            frameSequence: frame.sequence, timestamp: frame.timestampNanoseconds, frameDelivery: delivery,
            captureDate: captureDate,
            pixelBuffer: pixels, previewPixelBuffer: reductions.preview.map(PixelBuffer.init),
            embeddedThumbnailDimensions: reductions.thumbnail?.size, metadata: written?.entries ?? [:],
            exif: written.map(EXIFProperties.init) ?? EXIFProperties(),
            isSensorOrientationCompensationApplied: resolved.isSensorOrientationCompensationApplied,
            writtenOrientation: resolved.writtenOrientation,
            timings: ProcessingTimings(conversion: conversion.seconds, scaling: scaling.seconds, encoding: encoding.seconds),
            encodingRoute: cameraJPEG?.route ?? (resolved.format == .uncompressed ? .none : .encoded),
            fileData: fileData)
    }

    /// Whether a photo is encoded from band buffers of each strip encoder, its planes made only
    /// if its pixel buffer is read: a JPEG without a preview (which is scaled from the whole
    /// photo) from frames its camera keeps anyway (a file's mapping, the synthetic camera's
    /// picture) — 18 MB less memory to touch at 12 MP, all of it fresh in a process that takes
    /// one photo. The processor decides by the frame; the prepared memory by the camera.
    static func encodesFromBands(_ resolved: ResolvedPhotoSettings, framesAreFreeToKeep: Bool) -> Bool {
        resolved.format == .jpeg && resolved.previewDimensions == nil && framesAreFreeToKeep
    }

    /// The camera's own JPEG for a JPEG photo of a whole MJPEG frame: as it came (Huffman
    /// tables added if missing) when no pixel change is needed, turned losslessly when the turn
    /// is exact for its size (never trimmed or shifted), nil otherwise.
    private static func keptCameraJPEG(_ jpeg: [UInt8], _ frame: Frame,
                                       _ resolved: ResolvedPhotoSettings) throws -> (bytes: [UInt8], route: EncodingRoute)? {
        guard resolved.format == .jpeg, resolved.cropRect == PixelRect(covering: frame.size) else { return nil }
        let camera = try JPEGFile.withStandardHuffmanTables(jpeg)
        if resolved.pixelTransform == .up { return (camera, .cameraJPEG) }
        let geometry = try JPEGLosslessTransform.geometry(of: camera)
        guard JPEGLosslessTransform.isExact(resolved.pixelTransform, size: geometry.size, mcu: geometry.mcu) else { return nil }
        return (try JPEGLosslessTransform.transform(camera, applying: resolved.pixelTransform), .losslessTransform)
    }

    /// An MJPEG frame decoded to RGB, so crop and transform still happen in the one conversion
    /// pass. A frame that does not decode is reported as corrupt.
    static func decoded(_ jpeg: [UInt8], of frame: Frame) throws -> Frame {
        let (size, rgb) = try JPEGDecoder().decodeRGB(jpeg)
        guard size == frame.size else { throw CodecError.corruptFile(format: "MJPEG", reason: "frame is \(size), the stream \(frame.size)") }
        return try Frame(format: .rgb24, size: size, range: .full, storage: FrameStorage(copying: rgb),
                         sequence: frame.sequence, timestampNanoseconds: frame.timestampNanoseconds)
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

    /// Preview and thumbnail, scaled with an area filter from the already transformed photo; the
    /// thumbnail from the preview when that is large enough (fewer pixels to average).
    /// Asks `pixels` for its planes only when there is something to scale.
    private func reduce(_ pixels: PixelBuffer, _ resolved: ResolvedPhotoSettings) throws(ImagingError) -> Reductions {
        let preview = try resolved.previewDimensions.map { (size) throws(ImagingError) in try pixels.image.scaled(to: size) }
        let thumbnail = try resolved.embeddedThumbnailDimensions.map { (size) throws(ImagingError) in
            if let preview, preview.size.width >= size.width, preview.size.height >= size.height {
                return try preview.scaled(to: size)
            }
            return try pixels.image.scaled(to: size)
        }
        return Reductions(preview: preview, thumbnail: thumbnail)
    }

    /// The EXIF block for a JPEG; the thumbnail is re-encoded smaller until the block fits APP1.
    private func jpegEXIFBlock(_ exif: EXIFMetadata, thumbnail: PlanarImage?) throws(CodecError) -> [UInt8] {
        guard let thumbnail else { return try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: nil) }
        return try encoders.withJPEGEncoder { (encoder) throws(CodecError) in
            var block: [UInt8] = []
            for quality in Self.thumbnailQualities {
                block = try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: try encoder.encode(thumbnail, quality: quality))
                if block.count <= Self.maximumEXIFBlockSize { break }
            }
            return block
        }
    }

    static func timed<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
        let start = ContinuousClock.now
        let value = try body()
        return (value, ContinuousClock.now - start)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
