import Codecs
import FoundationEssentials
import Imaging

extension PhotoProcessor {
    /// The encode stage, with the reductions and the EXIF block made beside it: the MJPEG route
    /// inserts metadata into the kept camera JPEG; a JPEG is encoded in strips that convert their
    /// own bands; HEIC and TIFF are encoded from the converted planes.
    func encode(_ converted: ConvertedFrame, described: PhotoDescription,
                resolved: ResolvedPhotoSettings) throws(PhotoCaptureError) -> EncodedPhoto {
        do {
            if resolved.format == .jpeg, let kept = converted.keptJPEG {
                return try keep(kept, pixels: converted.pixels, described: described, resolved: resolved)
            } else if resolved.format == .jpeg {
                return try encodeJPEG(converted, described: described, resolved: resolved)
            }
            return try encodeFile(converted, described: described, resolved: resolved)
        } catch {
            throw error.attributed(to: resolved.uniqueID)
        }
    }

    /// The MJPEG route's encode: no encode, the kept camera JPEG with EXIF (and thumbnail) and
    /// XMP inserted.
    private func keep(_ kept: ConvertedFrame.KeptJPEG, pixels: PixelBuffer, described: PhotoDescription,
                      resolved: ResolvedPhotoSettings) throws(PhotoCaptureError) -> EncodedPhoto {
        let ((reductions, exifBlock), scaling) = try Self.timed { () throws(PhotoCaptureError) -> (PhotoReductions, [UInt8]) in
            let reductions = try PhotoCaptureError.imaging { () throws(ImagingError) in try PhotoReductions(scaling: pixels, for: resolved) }
            return (reductions, try PhotoCaptureError.encoding { () throws(CodecError) in
                try described.jpegEXIFBlock(thumbnail: reductions.thumbnail, encoders: encoders)
            })
        }
        let fileData = try PhotoCaptureError.encoding { () throws(CodecError) in
            try described.insertingXMP(into: try JPEGFile.insertingEXIF(exifBlock, into: kept.bytes))
        }
        return EncodedPhoto(fileData: fileData, exifBlock: exifBlock, reductions: reductions, scaling: scaling, encoding: .zero)
    }

    /// A JPEG's encode in strips on every core, each strip converting its own bands
    /// (``BandConversion``); the reduce and describe stages run beside it on the same threads
    /// (``JPEGSideWork``; not in a second concurrentPerform around it: nested, the strips would
    /// be encoded one after another), and their EXIF and XMP segments go in as the strips are
    /// joined: one copy of the photo.
    private func encodeJPEG(_ converted: ConvertedFrame, described: PhotoDescription,
                            resolved: ResolvedPhotoSettings) throws(PhotoCaptureError) -> EncodedPhoto {
        let pixels = converted.pixels, strips = Self.jpegStrips(for: pixels.size)
        let thumbnail = try converted.inEncode == nil || resolved.previewDimensions != nil ? nil
            : PhotoCaptureError.imaging { () throws(ImagingError) in
                try resolved.embeddedThumbnailDimensions.flatMap { (size) throws(ImagingError) in
                    try BandedReduction(from: pixels.size, to: size, parts: JPEGEncoder.stripRows(for: pixels.size, strips: strips))
                }
            }
        let bands = BandConversion(conversion: converted.inEncode, thumbnail: thumbnail)
        let side = JPEGSideWork(pixels: pixels, resolved: resolved, described: described, thumbnail: thumbnail, encoders: encoders)
        let (jpeg, encoding) = try PhotoCaptureError.encoding { () throws(CodecError) in
            try Self.timed { () throws(CodecError) in try encoders.withJPEGEncoder { (encoder) throws(CodecError) in
            if converted.deferredPlanes {
                return try encoder.encodeInStrips(size: pixels.size, quality: resolved.quality, strips: strips,
                                                  converting: bands.convert, alongside: side.reduceAndDescribe,
                                                  segments: side.markerSegments, whole: { pixels.image })
            }
            let image = pixels.image
            return try encoder.encodeInStrips(image, quality: resolved.quality, strips: strips,
                                              preparing: bands.conversion == nil ? nil : { (rows) throws(CodecError) in
                                                  try bands.convert(rows, into: image, firstRow: 0)
                                              }, alongside: side.reduceAndDescribe, segments: side.markerSegments)
            } }
        }
        let (reductions, exifBlock, scaling) = try side.result()
        return EncodedPhoto(fileData: jpeg, exifBlock: exifBlock, reductions: reductions, scaling: scaling, encoding: encoding)
    }

    /// A HEIC's or a TIFF's encode from the converted planes (a TIFF's from bands when its planes
    /// are deferred), after the reductions; an uncompressed photo has no file.
    private func encodeFile(_ converted: ConvertedFrame, described: PhotoDescription,
                            resolved: ResolvedPhotoSettings) throws(PhotoCaptureError) -> EncodedPhoto {
        let pixels = converted.pixels
        let (reductions, scaling) = try PhotoCaptureError.imaging { () throws(ImagingError) in
            try Self.timed { () throws(ImagingError) in try PhotoReductions(scaling: pixels, for: resolved) }
        }
        let started = ContinuousClock.now
        let exifBlock = try PhotoCaptureError.encoding { () throws(CodecError) in try described.exifBlock() }
        let fileData: Data?
        switch resolved.format {
        case .heic:
            fileData = try PhotoCaptureError.encoding { () throws(CodecError) in
                let encoder = try HEICEncoder(preset: HEICEncoderPreset(resolved.heicEncodingSpeed))
                return Data(try encoder.encode(pixels.image, quality: resolved.quality, orientation: resolved.writtenOrientation,
                                               thumbnail: reductions.thumbnail, exif: exifBlock, xmp: described.xmp))
            }
        case .tiff:
            // Each strip's RGB made as it is coded (from the planes, or converted band by band),
            // not the whole picture's first.
            var source = TIFFStripRows(pixels: pixels, conversion: converted.deferredPlanes ? converted.inEncode : nil)
            fileData = Data(try PhotoCaptureError.encoding { () throws(CodecError) in
                try TIFFFile.encode(size: pixels.size, metadata: described.exif, xmp: described.xmp) { rows, strip throws(CodecError) in
                    do throws(ImagingError) { try source.write(rows, into: strip) } catch { throw .imaging(error) }
                }
            })
        default:
            fileData = nil
        }
        return EncodedPhoto(fileData: fileData, exifBlock: exifBlock, reductions: reductions, scaling: scaling,
                            encoding: ContinuousClock.now - started)
    }
}
