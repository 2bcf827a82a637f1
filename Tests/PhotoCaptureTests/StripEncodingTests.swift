import Codecs
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// The photo pipeline encodes a large JPEG in strips on every core; the file must still be the
/// picture the single-threaded encode gives, pixel for pixel, with its EXIF and thumbnail.
@Suite struct StripEncodingTests {
    /// Upright, and with the sensor turned (bands of frame columns turned into each band buffer)
    /// or mirrored and turned.
    static let mountings = [SensorMounting.upright, SensorMounting(rotation: 90), SensorMounting(rotation: 270, isMirrored: true)]

    @Test("a 1280x960 photo is strip-encoded (RST markers) from band buffers and djpeg decodes it to the single encode's pixels",
          arguments: mountings)
    func pipelinePhotoIsStripEncoded(mounting: SensorMounting) async throws {
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(.synthetic(.init(sensorMounting: mounting, framesPerSecond: 120)))
        try session.addOutput(output)
        try await session.startRunning()
        var settings = PhotoSettings(format: .jpeg)
        settings.framePixelFormat = .yuyv
        settings.maxPhotoDimensions = PixelSize(width: 1280, height: 960)
        settings.embeddedThumbnailDimensions = PixelSize(width: 160, height: 120)
        let photo = try await output.capturePhoto(with: settings)
        await session.stopRunning()

        let jpeg = [UInt8](try #require(photo.fileDataRepresentation()))
        let restarts = (0..<(jpeg.count - 1)).filter { jpeg[$0] == 0xFF && (0xD0...0xD7).contains(jpeg[$0 + 1]) }
        #expect(restarts.count == (ProcessInfo.processInfo.activeProcessorCount > 1 ? 1 : 0))

        // Encoded from each strip's band buffer: the photo's planes are made only now, by the
        // pixel buffer converting the frame again.
        #expect(!photo.pixelBuffer.isMade)
        let size = photo.resolvedSettings.photoDimensions
        #expect([PixelSize(width: 1280, height: 960), PixelSize(width: 960, height: 1280)].contains(size))
        #expect(photo.pixelBuffer.size == size)
        _ = photo.pixelBuffer.image
        #expect(photo.pixelBuffer.isMade)

        let folder = try TemporaryDirectory("strip-encoding")
        let file = try folder.write(jpeg, named: "photo.jpg")
        let single = try folder.write(try JPEGEncoder().encode(photo.pixelBuffer.image, quality: photo.resolvedSettings.quality),
                                      named: "single.jpg")
        let decoded = try ReferenceDecoder.djpeg(file)
        #expect(decoded.size == size)
        #expect(decoded == (try ReferenceDecoder.djpeg(single)))
        #expect(try ExternalTool.exiftoolValidationProblems(file) == [])
        let thumbnail = try ExternalTool.run("exiftool", ["-b", "-ThumbnailImage", file]).checked().stdout
        let thumbnailSize = try #require(photo.resolvedSettings.embeddedThumbnailDimensions)
        // 160x120 asked for: within it at the photo's aspect ratio.
        #expect(thumbnailSize == (size.width > size.height ? PixelSize(width: 160, height: 120) : PixelSize(width: 90, height: 120)))
        #expect(try JPEGDecoder().header([UInt8](thumbnail)).size == thumbnailSize)
        // Made band by band on the strip threads: the photo, reduced (libyuv's box scaling here),
        // to within the thumbnail's JPEG coding.
        let small = try JPEGDecoder().decodePlanar([UInt8](thumbnail)).packedPlane(0)
        let reference = try photo.pixelBuffer.image.scaled(to: thumbnailSize).packedPlane(0)
        let difference = Double(zip(small, reference).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(small.count)
        #expect(difference < 3, "thumbnail luma differs from the reduced photo by \(difference) on average")
    }
}
