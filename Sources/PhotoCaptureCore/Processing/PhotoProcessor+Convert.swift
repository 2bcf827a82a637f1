import Codecs
import Imaging

extension PhotoProcessor {
    /// The convert stage: the MJPEG route (the camera's JPEG kept, or turned losslessly, where no
    /// pixel changes), or one conversion pass — format, crop and turn — prepared for the strip
    /// encode (JPEG) or done here (other formats). An MJPEG frame that is not kept is decoded to
    /// RGB first, so crop and turn still happen in the one pass.
    func convert(_ frame: Frame, resolved: ResolvedPhotoSettings, cameraName: String) throws(PhotoCaptureError) -> ConvertedFrame {
        let errors = ConversionErrors(resolved: resolved, cameraName: cameraName)
        // An MJPEG frame's bytes, copied out of the driver's buffer once.
        let compressed = frame.format.isCompressed ? frame.storage.withUnsafeBytes { [UInt8]($0) } : nil
        if let compressed, let kept = try errors.decoding({ () throws(CodecError) in try Self.keptCameraJPEG(compressed, frame, resolved) }) {
            let planes = try errors.decoding { () throws(CodecError) in try JPEGDecoder().decodePlanar(kept.bytes) }
            return ConvertedFrame(pixels: PixelBuffer(image: planes), keptJPEG: kept)
        }
        let source = try errors.decoding { () throws(CodecError) in try Self.uncompressed(frame, bytes: compressed) }
        return try errors.converting { () throws(ImagingError) in
            let converter = FrameConverter()
            let conversion = try converter.prepare(source, crop: resolved.cropRect, applying: resolved.pixelTransform)
            let deferred = Self.encodesFromBands(resolved, framesAreFreeToKeep: conversion.isFreeToKeep)
            if resolved.format == .tiff, deferred {
                return ConvertedFrame(pixels: PixelBuffer(deferring: conversion), inEncode: conversion, deferredPlanes: true)
            }
            guard resolved.format == .jpeg else { return ConvertedFrame(pixels: PixelBuffer(image: try converter.convert(conversion))) }
            let pixels = deferred ? PixelBuffer(deferring: conversion) : PixelBuffer(image: try PlanarImage(size: conversion.size))
            return ConvertedFrame(pixels: pixels, inEncode: conversion, deferredPlanes: deferred)
        }
    }

    /// How the convert stage reports failures as the capture's errors, keeping their types: a
    /// camera frame that does not decode as
    /// ``PhotoCaptureError/Code/frameUndecodable(device:_:)``, one that declares more pixels
    /// than the budget allows and a failed conversion as ``PhotoCaptureError/Code/imaging(_:)``.
    struct ConversionErrors {
        let resolved: ResolvedPhotoSettings
        let cameraName: String

        /// `body`'s value, a codec failure reported as the frame's.
        func decoding<T>(_ body: () throws(CodecError) -> T) throws(PhotoCaptureError) -> T {
            do {
                return try body()
            } catch .pixelBudgetExceeded(_, let size, let limit) {
                throw PhotoCaptureError(.imaging(.pixelBudgetExceeded(size: size, limit: limit)), uniqueID: resolved.uniqueID)
            } catch .imaging(let error) {
                throw PhotoCaptureError(.imaging(error), uniqueID: resolved.uniqueID)
            } catch {
                throw PhotoCaptureError(.frameUndecodable(device: cameraName, error), uniqueID: resolved.uniqueID)
            }
        }

        /// `body`'s value, a conversion failure reported as such.
        func converting<T>(_ body: () throws(ImagingError) -> T) throws(PhotoCaptureError) -> T {
            do { return try body() } catch { throw PhotoCaptureError(.imaging(error), uniqueID: resolved.uniqueID) }
        }
    }

    /// Whether a photo is encoded from band buffers (each strip encoder's, or a TIFF's strip by
    /// strip), its planes made only if its pixel buffer is read: a JPEG or TIFF without a preview
    /// (which is scaled from the whole photo) from frames its camera keeps anyway (a file's
    /// mapping, the synthetic camera's picture, a RAW file's sensor data developed in bands) —
    /// 18 MB less memory to touch at 12 MP, all of it fresh in a process that takes one photo.
    /// The processor decides by the frame; the prepared memory by the camera.
    static func encodesFromBands(_ resolved: ResolvedPhotoSettings, framesAreFreeToKeep: Bool) -> Bool {
        (resolved.format == .jpeg || resolved.format == .tiff) && resolved.previewDimensions == nil && framesAreFreeToKeep
    }

    /// The camera's own JPEG for a JPEG photo of a whole MJPEG frame: as it came (Huffman
    /// tables added if missing) when no pixel change is needed, turned losslessly when the turn
    /// is exact for its size (never trimmed or shifted), nil otherwise.
    private static func keptCameraJPEG(_ jpeg: [UInt8], _ frame: Frame,
                                       _ resolved: ResolvedPhotoSettings) throws(CodecError) -> ConvertedFrame.KeptJPEG? {
        guard resolved.format == .jpeg, resolved.cropRect == PixelRect(covering: frame.size) else { return nil }
        let camera = try JPEGFile.withStandardHuffmanTables(jpeg)
        if resolved.pixelTransform == .up { return ConvertedFrame.KeptJPEG(bytes: camera, route: .cameraJPEG) }
        let geometry = try JPEGLosslessTransform.geometry(of: camera)
        guard JPEGLosslessTransform.isExact(resolved.pixelTransform, size: geometry.size, mcu: geometry.mcu) else { return nil }
        return ConvertedFrame.KeptJPEG(bytes: try JPEGLosslessTransform.transform(camera, applying: resolved.pixelTransform),
                                       route: .losslessTransform)
    }

    /// `frame` uncompressed: an MJPEG frame decoded to RGB (from `bytes`, its bytes already
    /// copied out, when given), so crop and turn still happen in the one conversion pass;
    /// another frame as it is. A decoded frame of another size than the stream's is refused.
    static func uncompressed(_ frame: Frame, bytes: [UInt8]? = nil) throws(CodecError) -> Frame {
        guard frame.format.isCompressed else { return frame }
        let (size, rgb) = try JPEGDecoder().decodeRGB(bytes ?? frame.storage.withUnsafeBytes { [UInt8]($0) })
        guard size == frame.size else { throw .corruptFile(format: "MJPEG", reason: "frame is \(size), the stream \(frame.size)") }
        do {
            return try Frame(format: .rgb24, size: size, range: .full, storage: FrameStorage(copying: rgb),
                             sequence: frame.sequence, timestampNanoseconds: frame.timestampNanoseconds)
        } catch {
            throw .imaging(error)
        }
    }
}
