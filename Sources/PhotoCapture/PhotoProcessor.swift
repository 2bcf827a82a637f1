import Codecs
import Foundation
import Imaging

/// Turns one frame into one photo: one conversion pass (format, crop and orientation transform
/// together), previews scaled from its result, one encode, metadata.
struct PhotoProcessor {
    /// Software name written into EXIF.
    static let software = "photocap 0.1"
    /// EXIF thumbnails are re-encoded at falling quality until they fit the 64 KiB APP1 segment.
    static let thumbnailQualities = [85, 70, 50, 30]
    /// An APP1 segment holds 65,533 bytes, six of which are the "Exif\0\0" header.
    static let maximumEXIFBlockSize = 65_527

    let encoders: EncoderPool

    func process(_ frame: Frame, resolved: ResolvedPhotoSettings, cameraName: String,
                 sequenceCount: Int = 1) throws(PhotoCaptureError) -> CapturePhoto {
        let id = resolved.uniqueID
        let clock = ContinuousClock()
        let start = clock.now
        let image: PlanarImage, preview: PlanarImage?, thumbnail: PlanarImage?
        do {
            image = try FrameConverter().convert(frame, crop: resolved.cropRect, applying: resolved.pixelTransform)
        } catch {
            throw PhotoCaptureError(.imaging(error), uniqueID: id)
        }
        let converted = clock.now
        do {
            preview = try resolved.previewDimensions.map { (size) throws(ImagingError) in try image.scaled(to: size) }
            // Scale the thumbnail from the preview when it is large enough: fewer pixels to average.
            thumbnail = try resolved.embeddedThumbnailDimensions.map { (size) throws(ImagingError) in
                if let preview, preview.size.width >= size.width, preview.size.height >= size.height {
                    return try preview.scaled(to: size)
                }
                return try image.scaled(to: size)
            }
        } catch {
            throw PhotoCaptureError(.imaging(error), uniqueID: id)
        }
        let scaled = clock.now

        let captureDate = Date(timeIntervalSinceNow: -Double(MonotonicClock.now() &- frame.timestampNanoseconds) / 1e9)
        var exif = EXIFMetadata(orientation: resolved.writtenOrientation)
        exif.make = "photocap"
        exif.model = cameraName
        exif.software = Self.software
        exif.dateTimeOriginal = captureDate
        exif.pixelSize = image.size
        exif.imageUniqueID = String(format: "%016llx%016llx", UInt64(bitPattern: id), frame.sequence)

        let fileData: Data?
        let exifBlock: [UInt8]
        do {
            switch resolved.format {
            case .jpeg:
                (fileData, exifBlock) = try encodeJPEG(image, thumbnail: thumbnail, exif: exif, quality: resolved.quality)
            case .heic:
                exifBlock = try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: nil)
                let encoder = try HEICEncoder(preset: HEICEncoderPreset(resolved.heicEncodingSpeed))
                fileData = Data(try encoder.encode(image, quality: resolved.quality, orientation: resolved.writtenOrientation,
                                                   thumbnail: thumbnail, exif: exifBlock))
            case .tiff:
                exifBlock = try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: nil)
                fileData = Data(try TIFFFile.encode(rgb: try image.rgbBytes(), size: image.size, metadata: exif))
            case .uncompressed:
                exifBlock = try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: nil)
                fileData = nil
            }
        } catch let error as ImagingError {
            throw PhotoCaptureError(.imaging(error), uniqueID: id)
        } catch {
            throw PhotoCaptureError(.encoding("\(error)"), uniqueID: id)
        }
        let metadata = (try? EXIFReader(data: exifBlock).entries) ?? [:]
        let encoded = clock.now

        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        return CapturePhoto(
            resolvedSettings: resolved, sequenceCount: sequenceCount, photoCount: resolved.expectedPhotoCount,
            frameSequence: frame.sequence, timestamp: frame.timestampNanoseconds, captureDate: captureDate,
            pixelBuffer: PixelBuffer(image: image), previewPixelBuffer: preview.map(PixelBuffer.init),
            embeddedThumbnailDimensions: thumbnail?.size, metadata: metadata,
            isSensorOrientationCompensationApplied: resolved.isSensorOrientationCompensationApplied,
            writtenOrientation: resolved.writtenOrientation,
            timings: ProcessingTimings(conversion: seconds(converted - start), scaling: seconds(scaled - converted),
                                       encoding: seconds(encoded - scaled)),
            fileData: fileData)
    }

    /// The JPEG and its EXIF block; the thumbnail is re-encoded smaller until the block fits APP1.
    private func encodeJPEG(_ image: PlanarImage, thumbnail: PlanarImage?, exif: EXIFMetadata,
                            quality: Int) throws(CodecError) -> (Data, [UInt8]) {
        try encoders.withJPEGEncoder { (encoder) throws(CodecError) in
            let jpeg = try encoder.encode(image, quality: quality)
            var block = try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: nil)
            if let thumbnail {
                for thumbnailQuality in Self.thumbnailQualities {
                    let candidate = try EXIFBuilder.tiffBlock(
                        for: exif, thumbnailJPEG: try encoder.encode(thumbnail, quality: thumbnailQuality))
                    block = candidate
                    if candidate.count <= Self.maximumEXIFBlockSize { break }
                }
            }
            return (Data(try JPEGFile.insertingEXIF(block, into: jpeg)), block)
        }
    }
}
