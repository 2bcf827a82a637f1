import Foundation
import PhotoCapture
import Testing
import TestSupport

/// MIPI CSI-2 packed Bayer frames (`pRAA`…, `pRCC`…) through the frame-file camera:
/// frames packed by the test's own packer, read back from the DNG by dcraw sample for
/// sample, and previewed and developed like the unpacked formats.
@Suite struct PackedBayerCaptureTests {
    static let size = PixelSize(width: 96, height: 64)
    static let formats: [FramePixelFormat] = [.srggb10p, .sgrbg10p, .sgbrg10p, .sbggr10p,
                                              .srggb12p, .sgrbg12p, .sgbrg12p, .sbggr12p]

    /// A session on a frame-file camera replaying `bytes` as `format`.
    static func output(_ bytes: [UInt8], _ format: FramePixelFormat,
                       in folder: TemporaryDirectory) async throws -> (CaptureSession, PhotoOutput) {
        let path = try folder.write(bytes, named: "frame-\(format.fourCC).raw")
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(try .frameFile(path: path, format: format, size: size))
        try session.addOutput(output)
        try await session.startRunning()
        return (session, output)
    }

    /// Every sample of the packed frame comes back out of the DNG through dcraw and LibRaw exactly; the DNG
    /// is valid, 16 bits a sample with WhiteLevel 2^bits − 1, and has the format's CFA pattern.
    @Test(arguments: formats)
    func everySampleSurvivesIntoTheDNG(format: FramePixelFormat) async throws {
        let folder = try TemporaryDirectory("packed-bayer")
        let values = CSI2Packer.pattern(width: Self.size.width, height: Self.size.height, bits: format.bitsPerSample)
        let (session, output) = try await Self.output(CSI2Packer.pack(values, width: Self.size.width, bits: format.bitsPerSample),
                                                      format, in: folder)
        #expect(output.availableRawPhotoPixelFormatTypes == [format])
        let photo = try await output.capturePhoto(with: PhotoSettings(rawPixelFormat: format))
        await session.stopRunning()
        #expect(photo.isRawPhoto && photo.rawDetails?.frame.format == format)
        let file = try folder.write([UInt8](try #require(photo.fileDataRepresentation())), named: "packed.dng")
        #expect(try ExternalTool.exiftoolValidationProblems(file) == [], "\(format)")
        let tags = try ExternalTool.run("exiftool", ["-n", "-s3", "-SubIFD:BitsPerSample", "-SubIFD:WhiteLevel",
                                                     "-SubIFD:CFAPattern2", file]).checked().text
            .split(separator: "\n").map(String.init)
        let cfa = format.bayerPattern!.colorIndices.map(String.init).joined(separator: " ")
        #expect(tags == ["16", "\((1 << format.bitsPerSample) - 1)", cfa], "\(format)")
        // Two readers: dcraw, and LibRaw itself (unprocessed_raw).
        for (reader, raw) in [("dcraw", try ReferenceDecoder.dcrawRawSamples(file)), ("LibRaw", try ReferenceDecoder.librawRawSamples(file))] {
            #expect(raw.size == Self.size, "\(reader)")
            let mismatches = zip(raw.samples, values).filter { $0 != $1 }.count
            #expect(mismatches == 0, "\(format), \(reader): \(mismatches) of \(values.count) samples differ")
        }
    }

    /// A packed frame is previewed and developed exactly as the same samples unpacked (`RG10`,
    /// `RG12`…) are: the DNG's preview, the JPEG developed from it (RAW + processed) and the
    /// processed photo the conversion pass demosaics are the same pixels.
    @Test(arguments: [FramePixelFormat.sgbrg10p, .sbggr12p])
    func packedFramesAreDevelopedLikeUnpackedOnes(format: FramePixelFormat) async throws {
        let folder = try TemporaryDirectory("packed-bayer")
        let values = CSI2Packer.pattern(width: Self.size.width, height: Self.size.height, bits: format.bitsPerSample)
        let packed = CSI2Packer.pack(values, width: Self.size.width, bits: format.bitsPerSample)
        let words = values.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        var results: [[[UInt8]]] = []
        for (bytes, frameFormat) in [(packed, format), (words, format.unpacked)] {
            let (session, output) = try await Self.output(bytes, frameFormat, in: folder)
            var photos: [CapturePhoto] = []
            for try await photo in try output.capturePhotos(with: PhotoSettings(rawPixelFormat: frameFormat, processedFormat: .jpeg)) {
                photos.append(photo)
            }
            var processed = PhotoSettings(format: .jpeg)
            processed.framePixelFormat = frameFormat
            photos.append(try await output.capturePhoto(with: processed))
            await session.stopRunning()
            try #require(photos.count == 3)
            results.append(try photos.map { try $0.pixelBuffer.rgbImage().pixels })
        }
        #expect(results[0] == results[1], "\(format) and \(format.unpacked) differ")
    }
}
