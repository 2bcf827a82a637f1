import Codecs
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// MJPEG frames (the synthetic camera sends them as UVC webcams do: no Huffman tables): kept as
/// they came when no pixel changes, turned in the DCT domain only when that is exact, decoded
/// and re-encoded otherwise — judged by djpeg, ImageMagick and exiftool.
@Suite struct MJPEGRouteTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("mjpeg") }

    func capture(_ size: PixelSize, mounting: SensorMounting, compensation: Bool = true) async throws -> (CapturePhoto, String) {
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(.synthetic(.init(sensorMounting: mounting, framesPerSecond: 120)))
        try session.addOutput(output)
        output.isCameraSensorOrientationCompensationEnabled = compensation
        try await session.startRunning()
        var settings = PhotoSettings(format: .jpeg)
        settings.framePixelFormat = .mjpeg
        settings.maxPhotoDimensions = size
        settings.embeddedThumbnailDimensions = PixelSize(width: 160, height: 120)
        let photo = try await output.capturePhoto(with: settings)
        await session.stopRunning()
        let file = try folder.write([UInt8](photo.fileDataRepresentation()!), named: "\(UUID().uuidString).jpg")
        #expect(try ExternalTool.exiftoolValidationProblems(file) == [])
        return (photo, file)
    }

    /// The entropy-coded data from the first SOS on (of a file without an embedded thumbnail).
    static func scan(_ jpeg: [UInt8]) -> ArraySlice<UInt8> {
        let start = (0..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }!
        return jpeg[start...]
    }

    @Test func nothingToChangeKeepsTheCameraBytes() async throws {
        let size = PixelSize(width: 1280, height: 720)
        let (photo, file) = try await capture(size, mounting: .upright)
        #expect(photo.encodingRoute == .cameraJPEG)
        // What the synthetic sensor sent, computed here: the scene encoded at quality 90.
        let sent = try JPEGEncoder().encode(try SyntheticScene.image(size: size).planarImage(), quality: 90)
        let written = [UInt8](photo.fileDataRepresentation()!)
        let sentScan = Self.scan(sent)
        let keptScan = written.suffix(sentScan.count).elementsEqual(sentScan)
        #expect(keptScan, "the scan must be the camera's, not a re-encode")
        #expect(try JPEGFile.hasHuffmanTables(written), "a standalone file needs the tables the frame left out")
        #expect(try ReferenceDecoder.djpeg(file).meanAbsoluteDifference(to: SyntheticScene.image(size: size)) <= 4)
        #expect(try EXIFReader(data: try JPEGFile.exifBlock(in: written)!).orientation == .up)
    }

    @Test func anExactQuarterTurnIsDoneInTheDCTDomain() async throws {
        // 1280x720 at 4:2:0 is whole 16x16 blocks both ways, so a 90° turn is exact.
        let (photo, file) = try await capture(PixelSize(width: 1280, height: 720), mounting: SensorMounting(rotation: 90))
        #expect(photo.encodingRoute == .losslessTransform)
        #expect(photo.resolvedSettings.photoDimensions == PixelSize(width: 720, height: 1280))
        let upright = SyntheticScene.image(size: PixelSize(width: 720, height: 1280))
        #expect(try ReferenceDecoder.imageMagickAutoOriented(file).meanAbsoluteDifference(to: upright) <= 4)
        #expect(try ReferenceDecoder.djpeg(file).meanAbsoluteDifference(to: upright) <= 4, "stored upright")
        #expect(photo.pixelBuffer.size == PixelSize(width: 720, height: 1280))
    }

    @Test func anInexactTurnIsDecodedAndEncodedWithoutLosingPixels() async throws {
        // 1288 is not a multiple of 16: the lossless route would trim or shift, so it is not used.
        let (photo, file) = try await capture(PixelSize(width: 1288, height: 720), mounting: SensorMounting(rotation: 90))
        #expect(photo.encodingRoute == .encoded)
        let upright = SyntheticScene.image(size: PixelSize(width: 720, height: 1288))
        let shown = try ReferenceDecoder.imageMagickAutoOriented(file)
        #expect(shown.size == upright.size)
        #expect(shown.meanAbsoluteDifference(to: upright) <= 4)
    }

    @Test func withoutCompensationTheCameraBytesCarryTheOrientation() async throws {
        let (photo, file) = try await capture(PixelSize(width: 1280, height: 720), mounting: SensorMounting(rotation: 90),
                                              compensation: false)
        #expect(photo.encodingRoute == .cameraJPEG)
        #expect(photo.writtenOrientation == .left)
        let upright = SyntheticScene.image(size: PixelSize(width: 720, height: 1280))
        #expect(try ReferenceDecoder.imageMagickAutoOriented(file).meanAbsoluteDifference(to: upright) <= 4)
        // The embedded thumbnail shows what the stored pixels show, so viewers turn both alike.
        let thumbnail = try ExternalTool.run("exiftool", ["-b", "-ThumbnailImage", file]).checked().stdout
        #expect(try JPEGDecoder().header([UInt8](thumbnail)).size == PixelSize(width: 160, height: 90))
    }

    @Test("a frame that does not decode ends the request with the codec's error, typed, for every format")
    func anUndecodableFrameEndsTheRequestWithTheCodecError() async throws {
        // A JPEG's first marker and then nothing a decoder can read, as a damaged webcam frame.
        var generator = SeededGenerator(seed: 6)
        let garbage = [0xFF, 0xD8] + (0..<4000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = try folder.write(garbage, named: "damaged.mjpeg")
        let camera = try CaptureDevice.frameFile(path: path, format: .mjpeg, size: PixelSize(width: 320, height: 240))
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(camera)
        try session.addOutput(output)
        try await session.startRunning()
        defer { Task { await session.stopRunning() } }
        for format in [PhotoFormat.jpeg, .heic] {  // kept camera JPEG or decoded, converted and encoded
            let settings = PhotoSettings(format: format)
            let error = try await #require(throws: PhotoCaptureError.self) { try await output.capturePhoto(with: settings) }
            guard case .frameUndecodable(let device, _) = error.code else { Issue.record("\(format): \(error)"); continue }
            #expect(device == camera.localizedName && error.uniqueID == settings.uniqueID, "\(error)")
            #expect((error.underlyingError as? CodecError) != nil, "\(error)")
        }
    }
}
