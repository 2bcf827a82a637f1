import Foundation
import Imaging

extension CaptureDevice {
    /// A camera that replays one raw frame from a file, for machines without a camera and for
    /// reproducing what a sensor delivered.
    ///
    /// The file must hold exactly one frame of `format` and `size` with rows packed (no padding);
    /// anything else is rejected here, before any capture. The frame is "exposed" anew
    /// `framesPerSecond` times a second, like a free-running sensor.
    public static func frameFile(path: String, format: FramePixelFormat, size: PixelSize,
                                 mounting: SensorMounting = .upright,
                                 framesPerSecond: Int = 30) throws(PhotoCaptureError) -> CaptureDevice {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? error.localizedDescription
            throw PhotoCaptureError(.frameFileUnreadable(path: path, reason: FileManager.default.fileExists(atPath: path)
                                                          ? reason : "no such file"))
        }
        let stride = format.minimumBytesPerRow(width: size.width)
        let expected = format.frameByteCount(size: size, bytesPerRow: stride)
        if format.isCompressed {
            guard bytes.starts(with: [0xFF, 0xD8]) else {
                throw PhotoCaptureError(.frameFileUnreadable(path: path, reason: "an MJPEG frame must be a JPEG file (FF D8 ...)"))
            }
        } else if bytes.count != expected {
            throw PhotoCaptureError(.frameFileSizeMismatch(path: path, expected: expected, actual: bytes.count))
        }
        let storage = FrameStorage(copying: bytes)
        let picture: Frame
        do {
            picture = try Frame(format: format, size: size, bytesPerRow: stride, storage: storage)
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
        let source = StillFrameSource(framesPerSecond: framesPerSecond) { (_, _, _, _) throws(PhotoCaptureError) in picture }
        return CaptureDevice(
            uniqueID: "file:\(path)", localizedName: "frame file \((path as NSString).lastPathComponent)",
            kind: .frameFile, formats: [Format(pixelFormat: format, sizes: .discrete([size]))],
            sensorMounting: mounting, source: source)
    }
}
