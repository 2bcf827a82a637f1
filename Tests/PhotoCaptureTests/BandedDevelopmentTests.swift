import Codecs
import Foundation
import Imaging
import PhotoCapture
import PhotoCaptureCore
import Testing
import TestSupport

/// Pictures past ``RawDevelopment/largestWholeDevelopment`` are developed in bands by the
/// conversion pass instead of whole by LibRaw. Judged against LibRaw's own development of the
/// same DNG and against the synthetic scene's known colours, upright and through quarter and
/// half turns (a quarter turn's bands are columns of the sensor data).
@Suite struct BandedDevelopmentTests {
    /// Largest mean absolute difference from LibRaw's development, in 8-bit levels. The two
    /// differ only in the demosaic (AHD against Malvar–He–Cutler), at edges: measured 0.71–0.81
    /// on the synthetic scene's pixels, 0.86–0.94 between the two JPEG files (quality 95).
    /// Without white balance the difference measured 16.9, with the black level ignored 33.7
    /// (``theComparisonCanFail()``).
    static let tolerance = 1.5

    /// A DNG of the synthetic scene from a sensor mounted at `mounting`° (linear samples, green
    /// twice as sensitive as red, a black level: what development must undo).
    static func dng(mounting: Int) async throws -> Data {
        let (session, output) = try await RawCaptureTests.output(mounting: SensorMounting(rotation: mounting, isMirrored: false))
        return try await stoppingAfterwards(session) {
            var photos: [CapturePhoto] = []
            for try await photo in try output.capturePhotos(with: PhotoSettings(rawPixelFormat: .sgrbg12)) { photos.append(photo) }
            return try #require(photos.first?.fileDataRepresentation())
        }
    }

    /// The picture of `photo` as stored: decoded by djpeg from its file for a JPEG.
    static func stored(_ photo: CapturePhoto, in folder: TemporaryDirectory, named name: String) throws -> RGBImage {
        guard photo.resolvedSettings.format == .jpeg else { return try photo.pixelBuffer.rgbImage() }
        let path = folder.path(name)
        try #require(photo.fileDataRepresentation()).write(to: URL(fileURLWithPath: path))
        return try ReferenceDecoder.djpeg(path)
    }

    @Test("a DNG developed in bands matches LibRaw's development and the scene's colours",
          arguments: [(0, PhotoFormat.uncompressed), (90, .uncompressed), (90, .jpeg), (180, .jpeg)])
    func bandsMatchLibRaw(mounting: Int, format: PhotoFormat) async throws {
        let dng = try await Self.dng(mounting: mounting)
        #expect(try RAWDeveloper(data: [UInt8](dng)).bandedFrame()?.development != nil)
        var settings = PhotoSettings(format: format)
        settings.quality = 95
        let whole = try RawDevelopment.developPhoto(fromDNG: dng, settings: settings)
        let banded = try RawDevelopment.developPhoto(fromDNG: [UInt8](dng), settings: settings, largestWhole: 0)
        #expect(banded.resolvedSettings.pixelTransform == whole.resolvedSettings.pixelTransform)
        #expect(banded.writtenOrientation == whole.writtenOrientation)
        let folder = try TemporaryDirectory("banded-development")
        let wholeImage = try Self.stored(whole, in: folder, named: "whole.jpg")
        let bandedImage = try Self.stored(banded, in: folder, named: "banded.jpg")
        #expect(bandedImage.size == wholeImage.size)
        let difference = bandedImage.meanAbsoluteDifference(to: wholeImage)
        #expect(difference > 0, "the bands were not used: LibRaw developed both")
        #expect(difference <= Self.tolerance, "\(mounting)° \(format): \(difference) levels from LibRaw's")
        RawColourTests.expectColours(bandedImage.transformed(by: banded.writtenOrientation), "bands, \(mounting)° \(format)")
    }

    /// The tolerance tells a development that undoes the sensor's response from one that does
    /// not: the same bands without the white balance, or without the black level, are far from
    /// LibRaw's.
    @Test func theComparisonCanFail() async throws {
        let dng = [UInt8](try await Self.dng(mounting: 0))
        let libRaw = try RAWDeveloper(data: dng).develop()
        var frame = try #require(try RAWDeveloper(data: dng).bandedFrame())
        let development = try #require(frame.development)
        let smallest = development.scales.min()!
        for (label, broken) in [("no white balance", CFADevelopment(blackLevels: development.blackLevels, scales: [smallest, smallest, smallest, smallest],
                                                                     matrix: development.matrix)),
                                ("no black level", CFADevelopment(blackLevels: [0, 0, 0, 0], scales: development.scales, matrix: development.matrix))] {
            frame.development = broken
            let developed = try FrameConverter().convert(frame).rgbImage()
            let difference = developed.meanAbsoluteDifference(to: libRaw)
            #expect(difference > 10 * Self.tolerance, "\(label): \(difference) levels from LibRaw's")
        }
    }
}
