import Codecs
import Imaging

extension PhotoProcessor {
    /// The convert stage: the MJPEG route (the camera's JPEG kept, or turned losslessly, where no
    /// pixel changes), or one conversion pass — format, crop and turn — prepared for the strip
    /// encode (JPEG) or done here (other formats). An MJPEG frame that is not kept is decoded to
    /// RGB first, so crop and turn still happen in the one pass.
    func convert(_ frame: Frame, resolved: ResolvedPhotoSettings, cameraName: String) throws(PhotoCaptureError) -> ConvertedFrame {
        try convertingErrors(of: resolved, cameraName: cameraName) {
            // An MJPEG frame's bytes, copied out of the driver's buffer once.
            let compressed = frame.format.isCompressed ? frame.storage.withUnsafeBytes { [UInt8]($0) } : nil
            if let kept = try compressed.flatMap({ (jpeg) throws in try Self.keptCameraJPEG(jpeg, frame, resolved) }) {
                return ConvertedFrame(pixels: PixelBuffer(image: try JPEGDecoder().decodePlanar(kept.bytes)), keptJPEG: kept)
            }
            let source = try compressed.map { (jpeg) throws in try Self.decoded(jpeg, of: frame) } ?? frame
            let converter = FrameConverter()
            let conversion = try converter.prepare(source, crop: resolved.cropRect, applying: resolved.pixelTransform)
            guard resolved.format == .jpeg else { return ConvertedFrame(pixels: PixelBuffer(image: try converter.convert(conversion))) }
            let deferred = Self.encodesFromBands(resolved, framesAreFreeToKeep: conversion.isFreeToKeep)
            let pixels = deferred ? PixelBuffer(deferring: conversion) : PixelBuffer(image: try PlanarImage(size: conversion.size))
            return ConvertedFrame(pixels: pixels, inEncode: conversion, deferredPlanes: deferred)
        }
    }

    /// `body`'s result, its failures as the capture's errors: a damaged frame is reported as
    /// corrupt, one too large for the pixel budget as such.
    func convertingErrors<T>(of resolved: ResolvedPhotoSettings, cameraName: String,
                             _ body: () throws -> T) throws(PhotoCaptureError) -> T {
        let id = resolved.uniqueID
        do {
            return try body()
        } catch let error as ImagingError {
            throw PhotoCaptureError(.imaging(error), uniqueID: id)
        } catch CodecError.pixelBudgetExceeded(_, let size, let limit) {
            // Not a damaged frame: one that declares more than the budget allows.
            throw PhotoCaptureError(.imaging(.pixelBudgetExceeded(size: size, limit: limit)), uniqueID: id)
        } catch {
            throw PhotoCaptureError(.corruptFrames(device: cameraName, count: 1), uniqueID: id)
        }
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
                                       _ resolved: ResolvedPhotoSettings) throws -> ConvertedFrame.KeptJPEG? {
        guard resolved.format == .jpeg, resolved.cropRect == PixelRect(covering: frame.size) else { return nil }
        let camera = try JPEGFile.withStandardHuffmanTables(jpeg)
        if resolved.pixelTransform == .up { return ConvertedFrame.KeptJPEG(bytes: camera, route: .cameraJPEG) }
        let geometry = try JPEGLosslessTransform.geometry(of: camera)
        guard JPEGLosslessTransform.isExact(resolved.pixelTransform, size: geometry.size, mcu: geometry.mcu) else { return nil }
        return ConvertedFrame.KeptJPEG(bytes: try JPEGLosslessTransform.transform(camera, applying: resolved.pixelTransform),
                                       route: .losslessTransform)
    }

    /// An MJPEG frame decoded to RGB, so crop and transform still happen in the one conversion
    /// pass. A frame that does not decode is reported as corrupt.
    static func decoded(_ jpeg: [UInt8], of frame: Frame) throws -> Frame {
        let (size, rgb) = try JPEGDecoder().decodeRGB(jpeg)
        guard size == frame.size else { throw CodecError.corruptFile(format: "MJPEG", reason: "frame is \(size), the stream \(frame.size)") }
        return try Frame(format: .rgb24, size: size, range: .full, storage: FrameStorage(copying: rgb),
                         sequence: frame.sequence, timestampNanoseconds: frame.timestampNanoseconds)
    }
}
