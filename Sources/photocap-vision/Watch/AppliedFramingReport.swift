import PhotoCaptureVision

/// `watch --auto-framing --json`'s line for a framing applied to the camera:
/// `{"event":"framing","time":2.4,"aspectRatio":"3:4","zoomFactor":1.5,"crop":{"x":…,"y":…,"width":…,"height":…}}`,
/// the crop in pixels of the whole upright picture.
struct AppliedFramingReport: Encodable {
    struct Crop: Encodable {
        let x, y, width, height: Int
    }
    let event = "framing"
    /// Seconds from the first frame's exposure to the first frame with the framing, on the
    /// frames' timestamps, to a hundredth.
    let time: Double
    let aspectRatio: String
    let zoomFactor: Double
    let crop: Crop

    init(_ applied: AppliedFraming, firstFrameTimestamp: UInt64) {
        let nanoseconds = applied.frame.timestamp - min(applied.frame.timestamp, firstFrameTimestamp)
        time = (Double(nanoseconds) / 1e7).rounded() / 100
        aspectRatio = "\(applied.framing.aspectRatio)"
        zoomFactor = applied.framing.zoomFactor
        crop = Crop(x: applied.crop.x, y: applied.crop.y, width: applied.crop.size.width, height: applied.crop.size.height)
    }

    /// `framing 3:4 ×1.5 applied at 2.40 s: crop 120,0 360x480`.
    var sentence: String {
        "framing \(aspectRatio)\(zoomFactor == 1 ? "" : " ×\(zoomFactor)") applied at \(String(printf: "%.2f", time)) s: "
            + "crop \(crop.x),\(crop.y) \(crop.width)x\(crop.height)"
    }
}
