import Codecs
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// RAW capture from a real V4L2 driver: vivid's Bayer formats become
/// DNGs whose samples are exactly what vivid delivers (compared with a frame v4l2-ctl captured
/// itself), which exiftool validates and dcraw identifies. Off outside the VM.
@Suite(.serialized, .vivid)
struct VividRAWTests {
    let path = Vivid.path
    let folder: TemporaryDirectory
    static let size = PixelSize(width: 640, height: 360)

    init() throws { folder = try Vivid.reloaded(folder: "vivid-raw") }

    func capture(_ settings: PhotoSettings) async throws -> [CapturePhoto] {
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(try CaptureDevice.v4l2(path: path))
        try session.addOutput(output)
        try await session.startRunning()
        return try await stoppingAfterwards(session) {
            var photos: [CapturePhoto] = []
            for try await photo in try output.capturePhotos(with: settings) { photos.append(photo) }
            return photos
        }
    }

    @Test func theOutputListsVividsBayerFormats() async throws {
        let listed = try ExternalTool.run("v4l2-ctl", ["-d", path, "--list-formats"]).checked().text
        let bayer = FramePixelFormat.allCases.filter { $0.isBayer && listed.contains("'\($0.fourCC)'") }
        #expect(bayer.count >= 4, "\(listed)")
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(try CaptureDevice.v4l2(path: path))
        try session.addOutput(output)
        #expect(Set(output.availableRawPhotoPixelFormatTypes) == Set(bayer))
        #expect(output.availableRawPhotoPixelFormatTypes.first?.bitsPerSample == bayer.map(\.bitsPerSample).max())
    }

    /// 8-, 10-, 12- and 16-bit: the DNG's samples are vivid's, exactly.
    @Test(arguments: [FramePixelFormat.sbggr8, .srggb10, .sgrbg12, .sgbrg16])
    func dngsKeepVividsSamples(format: FramePixelFormat) async throws {
        try Vivid.set(["test_pattern": "0"])
        let byteCount = format.minimumBytesPerRow(width: Self.size.width) * Self.size.height
        let reference = try Vivid.referenceBytes(width: Self.size.width, height: Self.size.height, fourCC: format.fourCC,
                                                 byteCount: byteCount, in: folder.url)
        var settings = PhotoSettings(rawPixelFormat: format, processedFormat: .jpeg)
        settings.maxPhotoDimensions = Self.size
        let photos = try await capture(settings)
        try #require(photos.map(\.isRawPhoto) == [true, false])
        let dng = [UInt8](try #require(photos[0].fileDataRepresentation()))
        let libRaw = try RAWDeveloper(data: dng)
        #expect(libRaw.rawSize == Self.size)
        #expect(libRaw.cfaColorIndices == format.bayerPattern!.colorIndices)
        #expect(libRaw.whiteLevel == (1 << format.bitsPerSample) - 1)
        let expected: [UInt16] = format.bitsPerSample == 8
            ? reference.map(UInt16.init)
            : stride(from: 0, to: reference.count, by: 2).map { UInt16(reference[$0]) | UInt16(reference[$0 + 1]) << 8 }
        let values = libRaw.rawValues()
        #expect(values == expected, "\(format): \(zip(values, expected).filter { $0 != $1 }.count) samples differ from v4l2-ctl's frame")

        let dngPath = try folder.write(dng, named: "\(format.fourCC).dng")
        let jpegPath = try folder.write([UInt8](try #require(photos[1].fileDataRepresentation())), named: "\(format.fourCC).jpg")
        #expect(try ExternalTool.exiftoolValidationProblems(dngPath) == [])
        #expect(try ExternalTool.exiftoolValidationProblems(jpegPath) == [])
        let identified = try ExternalTool.run("dcraw", ["-i", "-v", dngPath]).checked().text
        #expect(identified.contains("Full size:    640 x 360"), "\(identified)")
        #expect(try ReferenceDecoder.djpeg(jpegPath).size == Self.size)
    }
}
