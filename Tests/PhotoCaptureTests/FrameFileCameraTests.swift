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
        let frame = try FrameBuilder.frame(from: picture, format: .rgb24)
        let path = try folder.write(frame.storage.withUnsafeBytes { [UInt8]($0) }, named: "frame.rgb")
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
        let black = try folder.write([UInt8](repeating: 0, count: frame.storage.count), named: "black.rgb")
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
}
