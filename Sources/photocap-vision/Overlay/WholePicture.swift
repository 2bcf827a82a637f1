import PhotoCapture
import Synchronization

/// The newest frame of the whole upright picture, whatever framing the camera applies: what
/// `watch --auto-framing --overlay` draws the applied crop on. A video data output that
/// delivers the whole field of view, scaled to the preview's size, keeps it.
final class WholePicture: VideoDataOutputDelegate {
    let output = VideoDataOutput()
    private let newest = Mutex<VideoFrame?>(nil)

    init(size: PixelSize) {
        output.deliversWholeFieldOfView = true
        output.videoPixelFormat = .bgra
        output.maximumDimensions = size
        output.setSampleBufferDelegate(self)
    }

    func videoDataOutput(_ output: VideoDataOutput, didOutput frame: VideoFrame) {
        newest.withLock { $0 = frame }
    }

    /// The newest picture, as RGB; nil before the first frame.
    func latest() -> RGBImage? {
        guard let frame = newest.withLock({ $0 }) else { return nil }
        let bgra = frame.planes[0].bytes
        var rgb = [UInt8](repeating: 0, count: frame.size.area * 3)
        for index in 0..<frame.size.area {
            (rgb[3 * index], rgb[3 * index + 1], rgb[3 * index + 2]) = (bgra[4 * index + 2], bgra[4 * index + 1], bgra[4 * index])
        }
        return RGBImage(size: frame.size, pixels: rgb)
    }
}
