import Codecs
import Imaging

extension PhotoProcessor {
    /// The convert stage of a photo merged from several frames: the reference and each
    /// neighbour through the one conversion pass (format, crop, turn) into whole planes, then
    /// ``FrameMerger`` (aligned, moving parts left out) — the encode gets the merged planes.
    /// A neighbour that does not convert (a corrupt MJPEG frame) is left out; when the merge
    /// cannot be done (a picture smaller than a tile) the reference comes alone.
    func merged(_ frame: Frame, neighbours: [Frame], resolved: ResolvedPhotoSettings,
                cameraName: String) throws(PhotoCaptureError) -> ConvertedFrame {
        let converter = FrameConverter()
        let errors = ConversionErrors(resolved: resolved, cameraName: cameraName)
        func upright(_ frame: Frame) throws(PhotoCaptureError) -> PlanarImage {
            let source = try errors.decoding { () throws(CodecError) in try Self.uncompressed(frame) }
            return try errors.converting { () throws(ImagingError) in
                try converter.convert(source, crop: resolved.cropRect, applying: resolved.pixelTransform)
            }
        }
        let reference = try upright(frame)
        let others = neighbours.compactMap { try? upright($0) }
        guard let (image, report) = try? FrameMerger().merge(reference: reference, neighbours: others) else {
            return ConvertedFrame(pixels: PixelBuffer(image: reference))
        }
        return ConvertedFrame(pixels: PixelBuffer(image: image), merged: report)
    }

    /// `resolved` with what the merge did: the frames that went into the photo, and why not
    /// as many as planned.
    static func recording(_ report: FrameMergeReport?, neighboursGiven: Int, in resolved: ResolvedPhotoSettings) -> ResolvedPhotoSettings {
        var resolved = resolved
        let used = report?.framesUsed ?? 1
        resolved.frameMerging.framesMerged = used
        if used < resolved.frameMerging.framesPlanned {
            // Too few neighbours came (or converted, or merged), or those that came matched nowhere.
            let short = (report?.neighbours.count ?? 0) < neighboursGiven || neighboursGiven + 1 < resolved.frameMerging.framesPlanned
            resolved.frameMerging.limitation = short ? .fewFrames : .sceneMoved
        }
        return resolved
    }
}
