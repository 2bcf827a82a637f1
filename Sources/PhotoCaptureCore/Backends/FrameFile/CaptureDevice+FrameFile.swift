import Codecs
import Dispatch
import FoundationEssentials
import ImageFiles
import Imaging

extension CaptureDevice {
    /// A camera that replays one raw frame from a file, for machines without a camera and for
    /// reproducing what a sensor delivered.
    ///
    /// The file must hold exactly one frame of `format` and `size` with rows packed (no padding);
    /// anything else is rejected here, before any capture. The frame is "exposed" anew
    /// `framesPerSecond` times a second, like a free-running sensor.
    ///
    /// The file is mapped, not copied, for as long as the camera or a frame from it lives: it may
    /// be replaced (renamed over) or deleted meanwhile, but not truncated in place, which would
    /// end the process with SIGBUS when the lost bytes are next read.
    public static func frameFile(path: String, format: FramePixelFormat, size: PixelSize,
                                 mounting: SensorMounting = .upright,
                                 framesPerSecond: Int = 30) throws(PhotoCaptureError) -> CaptureDevice {
        // The size comes from the command line: checked (budget, overflow) before the file is read.
        let stride: Int, expected: Int
        do throws(ImagingError) {
            try PixelBudget.check(size)
            guard let minimum = format.checkedMinimumBytesPerRow(width: size.width) else {
                throw ImagingError.sizeOverflow(size, format: format)
            }
            stride = minimum
            expected = try format.frameByteCount(size: size, bytesPerRow: stride)
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
        // An MJPEG frame is compressed: never more than 8 bytes a pixel, however bad.
        let storage = try readFrameFile(path, expectedCount: format.isCompressed ? nil : expected,
                                        maximumCount: format.isCompressed ? max(1 << 20, size.area * 8) : expected)
        if format.isCompressed {
            guard storage.withUnsafeBytes({ $0.starts(with: [0xFF, 0xD8]) }) else {
                throw PhotoCaptureError(.frameFileNotJPEG(path: path))
            }
        }
        let picture: Frame
        do {
            picture = try Frame(format: format, size: size, bytesPerRow: stride, storage: storage)
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
        let source = StillFrameSource(framesPerSecond: framesPerSecond) { (_, _, _, _, _) throws(PhotoCaptureError) in picture }
        return CaptureDevice(
            uniqueID: "file:\(path)", localizedName: "frame file \(path.lastPathComponent)",
            kind: .frameFile, formats: [Format(pixelFormat: format, sizes: .discrete([size]))],
            sensorMounting: mounting, source: source)
    }

    /// The camera of ``frameFile(path:format:size:mounting:framesPerSecond:)`` for the frame in
    /// the file at the `file:` URL `url`.
    public static func frameFile(url: URL, format: FramePixelFormat, size: PixelSize, mounting: SensorMounting = .upright,
                                 framesPerSecond: Int = 30) throws(PhotoCaptureError) -> CaptureDevice {
        try frameFile(path: PhotoCaptureError.file(url.filePath), format: format, size: size, mounting: mounting, framesPerSecond: framesPerSecond)
    }

    /// The bytes of the file at `path`, mapped (no copy, no fresh memory: see `InputFile.map`),
    /// or where the file system cannot map, read once straight into the frame's storage; the
    /// size is checked against `expectedCount` and `maximumCount` before anything is allocated.
    private static func readFrameFile(_ path: String, expectedCount: Int?,
                                      maximumCount: Int) throws(PhotoCaptureError) -> FrameStorage {
        do throws(FileReadError) {
            return try InputFile.withOpenFile(path) { (descriptor, count) throws(FileReadError) in
                guard count <= maximumCount, expectedCount == nil || count == expectedCount else {
                    throw .tooLarge(path: path, bytes: count, limit: expectedCount ?? maximumCount)
                }
                if let mapped = InputFile.map(descriptor, count: count) {
                    let storage = FrameStorage(borrowing: mapped, holder: .source) { InputFile.unmap($0) }
                    // Its pages mapped on another thread while the camera starts and the first
                    // frame is awaited, not faulted in one by one by the photo's conversion.
                    DispatchQueue.global(qos: .userInitiated).async { storage.withUnsafeBytes(InputFile.populate) }
                    return storage
                }
                // Read once for every frame the camera hands out.
                return try FrameStorage(count: count, holder: .source) { (buffer) throws(FileReadError) in
                    let read = try InputFile.readAll(descriptor, into: buffer, path: path)
                    guard read == count else { throw .shrank(path: path, expected: count, read: read) }
                }
            }
        } catch {
            if case .tooLarge(_, let actual, let limit) = error {
                throw PhotoCaptureError(.frameFileSizeMismatch(path: path, expected: expectedCount ?? limit, actual: actual))
            }
            throw PhotoCaptureError(.frameFileUnreadable(error))
        }
    }
}
