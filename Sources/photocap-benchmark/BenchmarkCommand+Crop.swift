import Foundation
import PhotoCapture

extension BenchmarkCommand {
    /// The cost of a dynamic aspect ratio: the whole pipeline on a 16:9 frame (``size``'s width,
    /// the same scene) from a sensor mounted at 90°, uncropped and cropped to 1:1 in the same
    /// conversion pass. The crop reads and encodes fewer pixels, so it should cost no more.
    func croppingCases(in folder: URL) async throws -> [BenchmarkCase] {
        let wide = PixelSize(width: size.width, height: size.width * 9 / 16 & ~1)
        let frame = try FrameBuilder.frame(from: picture(size: wide), format: .yuyv)
        let framePath = folder.appendingPathComponent("frame-16x9.yuyv").path
        try frame.storage.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: framePath)) }
        var cases: [BenchmarkCase] = []
        for (name, ratio) in [("16:9 frame, 90° compensation, uncropped", nil), ("16:9 frame, 90° compensation, 1:1 crop", AspectRatio.ratio1x1)] {
            let (session, output) = try await startSession(mounting: SensorMounting(rotation: 90), frameFile: framePath,
                                                           frameSize: wide, aspectRatio: ratio)
            let path = folder.appendingPathComponent("crop-\(cases.count).jpg").path
            cases.append((name, session, jpegCapture(output: output, session: session, path: path)))
        }
        return cases
    }

    /// One benchmarked capture: a YUYV frame to a JPEG with EXIF and a 160x120 thumbnail, written
    /// to `path` (atomically, with fsync) when there is one.
    func jpegCapture(output: PhotoOutput, session: CaptureSession, path: String?) -> () async throws -> Duration {
        {
            var settings = PhotoSettings(format: .jpeg)
            settings.quality = self.quality
            settings.framePixelFormat = .yuyv
            settings.embeddedThumbnailDimensions = PixelSize(width: 160, height: 120)
            let photo = try await output.capturePhoto(with: settings)
            if let path { try photo.write(to: path, overwrite: true) }
            _ = session  // keeps the camera streaming while the case runs
            return .nanoseconds(Int64(photo.frameDelivery.requestToDeliveryNanoseconds))
        }
    }
}
