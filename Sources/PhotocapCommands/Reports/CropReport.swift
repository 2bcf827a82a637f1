import PhotoCapture

/// The `crop` object of a `--json` line: the aspect ratio and zoom, the rectangle of the frame
/// kept, and who cropped (`none`, `software` or `hardware`).
struct CropReport: Encodable {
    struct Rect: Encodable {
        let x, y, width, height: Int
        init(_ rect: PixelRect) { (x, y, width, height) = (rect.x, rect.y, rect.size.width, rect.size.height) }
    }

    let method: String
    let aspectRatio: String?
    let zoomFactor: Double
    let uncroppedFrameDimensions: JSONSize
    let sensorCrop: Rect
    let hardwareCrop: Rect?

    init(_ framing: PhotoFraming) {
        method = framing.cropMethod.rawValue
        aspectRatio = framing.aspectRatio?.description
        zoomFactor = framing.videoZoomFactor
        uncroppedFrameDimensions = JSONSize(framing.uncroppedFrameDimensions)
        sensorCrop = Rect(framing.sensorCrop)
        hardwareCrop = framing.hardwareCropRect.map(Rect.init)
    }
}
