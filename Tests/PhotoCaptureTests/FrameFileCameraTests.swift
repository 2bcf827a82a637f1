import Foundation
import PhotoCapture
import Testing
import TestSupport

/// The frame-file camera maps its file instead of reading it into fresh memory, and keeps its
/// frame when the file is renamed over or deleted, as its documentation promises.
@Suite struct FrameFileCameraTests {
    static let size = PixelSize(width: 64, height: 48)

    @Test func theFrameIsMappedAndOutlivesTheFileBeingReplacedAndDeleted() async throws {
        let folder = try TemporaryDirectory("frame-file-mapped")
        let picture = SyntheticScene.image(size: Self.size)
        let path = try folder.writeFrame(of: picture, format: .rgb24, named: "frame.rgb")
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(try .frameFile(path: path, format: .rgb24, size: Self.size))
        try session.addOutput(output)
        defer { Task { await session.stopRunning() } }

        // Mapped: the file is in the process's mappings (a read would leave no trace there).
        // (Read to the end: /proc files report a size of 0.)
        let maps = String(decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data(),
                          as: UTF8.self)
        #expect(maps.split(separator: "\n").contains { $0.hasSuffix(" \(path)") })

        // A black frame renamed over the file, then the file deleted: the camera keeps its frame.
        let black = try folder.write([UInt8](repeating: 0, count: Self.size.width * Self.size.height * 3), named: "black.rgb")
        #expect(rename(black, path) == 0)
        try await session.startRunning()
        let replaced = try await Self.decodedPhoto(output, folder: folder, name: "replaced.jpg")
        #expect(unlink(path) == 0)
        let deleted = try await Self.decodedPhoto(output, folder: folder, name: "deleted.jpg")
        for photo in [replaced, deleted] {
            // JPEG at quality 90 of the synthetic scene: within a few levels of it on average,
            // where the black frame would differ by the scene's mean (over 60 levels).
            #expect(Self.meanDifference(photo, picture) < 6)
        }
        #expect(Self.meanDifference(picture, RGBImage(size: Self.size, pixels: [UInt8](repeating: 0, count: Self.size.area * 3))) > 60)
    }

    @Test("a JPEG photo's pixel buffer is converted when first read, after the session stopped and the file went, and is the planes the encode would have made")
    func aDeferredPixelBufferIsTheEagerOne() async throws {
        let folder = try TemporaryDirectory("frame-file-deferred")
        let size = PixelSize(width: 98, height: 70)  // neither side a multiple of 16
        let path = try folder.writeFrame(of: SyntheticScene.image(size: size), format: .yuyv, named: "frame.yuyv")
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(try .frameFile(path: path, format: .yuyv, size: size, mounting: SensorMounting(rotation: 90)))
        try session.addOutput(output)
        try await session.startRunning()
        let deferred = try await output.capturePhoto(with: PhotoSettings(format: .jpeg))
        // A preview is scaled from the whole photo: its planes are made with the encode.
        var withPreview = PhotoSettings(format: .jpeg)
        withPreview.previewDimensions = PixelSize(width: 35, height: 49)
        let made = try await output.capturePhoto(with: withPreview)
        await session.stopRunning()
        #expect(unlink(path) == 0)

        #expect(!deferred.pixelBuffer.isMade)
        #expect(made.pixelBuffer.isMade)
        #expect(deferred.pixelBuffer.size == PixelSize(width: 70, height: 98))  // turned upright
        for plane in 0..<3 {
            let (a, b) = (deferred.pixelBuffer, made.pixelBuffer)
            #expect(a.bytesPerRow(ofPlane: plane) == b.bytesPerRow(ofPlane: plane))
            // Row by row: the padding after each row is nobody's pixels.
            func rows(_ buffer: PixelBuffer) -> [[UInt8]] {
                let (width, stride) = (buffer.size(ofPlane: plane).width, buffer.bytesPerRow(ofPlane: plane))
                return buffer.withUnsafeBytes(ofPlane: plane) { bytes in
                    (0..<buffer.size(ofPlane: plane).height).map { [UInt8](bytes[($0 * stride)..<($0 * stride + width)]) }
                }
            }
            #expect(rows(a) == rows(b), "plane \(plane)")
        }
        #expect(deferred.pixelBuffer.isMade)
    }

    static func decodedPhoto(_ output: PhotoOutput, folder: TemporaryDirectory, name: String) async throws -> RGBImage {
        let photo = try await output.capturePhoto(with: PhotoSettings(format: .jpeg))
        let data = try #require(photo.fileDataRepresentation())
        let file = try folder.write([UInt8](data), named: name)
        return try ReferenceDecoder.djpeg(file)
    }

    static func meanDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
        guard a.size == b.size else { return .infinity }
        let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.pixels.count)
    }

    /// Why a frame file cannot be read reaches the app typed, as the file layer said it: a folder
    /// is `.directory`, an MJPEG frame that is not a
    /// JPEG has a case of its own. The sentences read as before.
    @Test func anUnreadableFrameFileCarriesTheFileLayersError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("frame-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: PhotoCaptureError(.frameFileUnreadable(.directory(path: folder.path)))) {
            try CaptureDevice.frameFile(path: folder.path, format: .rgb24, size: Self.size)
        }
        do {
            _ = try CaptureDevice.frameFile(path: folder.path, format: .rgb24, size: Self.size)
        } catch {
            #expect(error.underlyingError as? FileReadError == .directory(path: folder.path))
            #expect(error.description == "cannot read frame file \(folder.path): it is a directory, not a file")
        }
        let notJPEG = folder.appendingPathComponent("frame.mjpg")
        try Data(repeating: 7, count: 64).write(to: notJPEG)
        #expect(throws: PhotoCaptureError(.frameFileNotJPEG(path: notJPEG.path))) {
            try CaptureDevice.frameFile(path: notJPEG.path, format: .mjpeg, size: Self.size)
        }
    }
}
