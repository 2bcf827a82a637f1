import FoundationEssentials
import Imaging

extension CaptureDevice {
    /// A camera that plays a recorded clip: a YUV4MPEG2 file (`.y4m`, as
    /// `ffmpeg -f yuv4mpegpipe` writes it) with 4:2:0 frames (`C420`, `C420jpeg`, `C420paldv`,
    /// `C420mpeg2`), for testing live features on real footage.
    ///
    /// The size, frame rate and chroma come from the clip's header, checked here before any
    /// capture, as is the first frame. Once the session runs, the frames are delivered as
    /// ``FramePixelFormat/i420`` at the clip's frame rate, each timestamped on the clip's
    /// timeline (frame `n` at the stream's start plus `n` frame intervals) with sequence
    /// number `n + 1`; they are read from the file as they are due, never all at once. After the
    /// last frame the stream ends with ``PhotoCaptureError/Code/clipEnded(path:frames:)``, which
    /// every consumer is told and every later photo request fails with, until the session is
    /// stopped (started again, it plays the clip from its start); unless `loops` plays the clip
    /// again.
    public static func clip(path: String, mounting: SensorMounting = .upright,
                            loops: Bool = false) throws(PhotoCaptureError) -> CaptureDevice {
        let source: ClipFrameSource, size: PixelSize
        do throws(ClipError) {
            let file = try ClipFile(path: path)
            size = file.header.size
            source = try ClipFrameSource(file: file, loops: loops)
        } catch {
            throw PhotoCaptureError(.clipUnreadable(path: path, error))
        }
        return CaptureDevice(
            uniqueID: "clip:\(path)", localizedName: "clip \(path.lastPathComponent)",
            kind: .frameFile, formats: [Format(pixelFormat: .i420, sizes: .discrete([size]))],
            sensorMounting: mounting, source: source)
    }
}
