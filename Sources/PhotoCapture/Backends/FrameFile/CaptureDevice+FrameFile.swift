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
        let stride = format.minimumBytesPerRow(width: size.width)
        let expected = format.frameByteCount(size: size, bytesPerRow: stride)
        let storage = try readFrameFile(path, expectedCount: format.isCompressed ? nil : expected)
        if format.isCompressed {
            guard storage.withUnsafeBytes({ $0.starts(with: [0xFF, 0xD8]) }) else {
                throw PhotoCaptureError(.frameFileUnreadable(path: path, reason: "an MJPEG frame must be a JPEG file (FF D8 ...)"))
            }
        }
        let picture: Frame
        do {
            picture = try Frame(format: format, size: size, bytesPerRow: stride, storage: storage)
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
        let source = StillFrameSource(framesPerSecond: framesPerSecond) { (_, _, _) throws(PhotoCaptureError) in picture }
        return CaptureDevice(
            uniqueID: "file:\(path)", localizedName: "frame file \((path as NSString).lastPathComponent)",
            kind: .frameFile, formats: [Format(pixelFormat: format, sizes: .discrete([size]))],
            sensorMounting: mounting, source: source)
    }

    /// The bytes of the file at `path`, read once straight into the frame's storage (no staging
    /// copy: at 12 MP that copy and its page faults cost more than the read); the size is
    /// checked against `expectedCount` before anything is allocated.
    private static func readFrameFile(_ path: String, expectedCount: Int?) throws(PhotoCaptureError) -> FrameStorage {
        func unreadable(_ reason: String) -> PhotoCaptureError { PhotoCaptureError(.frameFileUnreadable(path: path, reason: reason)) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(errno == ENOENT ? "no such file" : String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable(String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw unreadable("not a regular file") }
        let count = Int(status.st_size)
        if let expectedCount, count != expectedCount {
            throw PhotoCaptureError(.frameFileSizeMismatch(path: path, expected: expectedCount, actual: count))
        }
        return try FrameStorage(count: count) { (buffer) throws(PhotoCaptureError) in
            var done = 0
            while done < count {
                let got = read(descriptor, buffer.baseAddress! + done, count - done)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { throw unreadable(got == 0 ? "the file shrank while it was read" : String(cString: strerror(errno))) }
                done += got
            }
        }
    }
}
