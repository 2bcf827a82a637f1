import Foundation
import PhotoCapture
import Testing
import TestSupport

/// RAW (DNG) photos in a bracket on the synthetic camera, judged by dcraw's
/// raw samples and exiftool: each member's DNG has that member's light and states the exposure
/// read back.
@Suite struct RawBracketTests {
    static let size = PixelSize(width: 320, height: 240)
    static let biases = [-2.0, 0, 2]

    static func settings(processed: PhotoFormat?) -> PhotoSettings {
        var settings = PhotoSettings(rawPixelFormat: .sgrbg12, processedFormat: processed)
        settings.bracketedSettings = biases.map { .autoExposure(exposureTargetBias: $0) }
        return settings
    }

    static func photos(_ settings: PhotoSettings) async throws -> [CapturePhoto] {
        let (session, output, _) = try await BracketCaptureTests.output(maximumSize: size)
        let photos = try await BracketCaptureTests.photos(output, settings)
        await session.stopRunning()
        return photos
    }

    /// exiftool's numeric reading of one tag.
    static func exif(_ file: String, _ tag: String) throws -> Double? {
        Double(try ExternalTool.run("exiftool", ["-n", "-s3", "-" + tag, file]).checked().text
            .trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// −2/0/+2 EV as DNGs: the mean raw level above black grows ×4 per 2 EV over the sites that
    /// clip in no member (dcraw's samples, black and white levels from exiftool), and exiftool
    /// reads each member's exposure as the camera read it back. Measured ratios: 4.04 and 4.01
    /// (−2 EV goes through 8-bit sRGB in the synthetic scene, so its darkest sites round).
    @Test func aDNGBracketHasEachMembersLightAndExposure() async throws {
        let settings = Self.settings(processed: nil)
        let photos = try await Self.photos(settings)
        try #require(photos.count == 3)
        #expect(photos.allSatisfy { $0.isRawPhoto && $0.photoCount == 3 && $0.resolvedSettings.uniqueID == settings.uniqueID })
        #expect(photos.map(\.sequenceCount) == [1, 2, 3])

        let folder = try TemporaryDirectory("raw-bracket")
        var samples: [[UInt16]] = []
        var black = 0.0, white = 0.0
        for photo in photos {
            let file = try folder.write([UInt8](try #require(photo.fileDataRepresentation())), named: "b\(photo.sequenceCount).dng")
            #expect(try ExternalTool.exiftoolValidationProblems(file) == [], "member \(photo.sequenceCount)")
            let applied = try #require(photo.appliedExposure)
            let bias = try #require(applied.exposureTargetBias), duration = try #require(applied.exposureDuration)
            let iso = try #require(applied.iso)
            #expect(try Self.exif(file, "ExposureCompensation") == bias)
            // libtiff stores EXIF rationals through a float: 1/400 reads back as 0.00249999994.
            #expect(abs(try #require(try Self.exif(file, "ExposureTime")) / duration - 1) < 1e-6)
            #expect(try Self.exif(file, "ISO") == iso.rounded())
            let raw = try ReferenceDecoder.dcrawRawSamples(file)
            #expect(raw.size == Self.size)
            samples.append(raw.samples)
            black = try #require(try Self.exif(file, "BlackLevel"))
            white = try #require(try Self.exif(file, "WhiteLevel"))
        }
        #expect(photos.compactMap { $0.appliedExposure?.exposureTargetBias } == Self.biases)
        // Sites that clip in no member. The sensor's red and blue sites clip below white (their
        // gain is under 1), so a site counts as clipped at its colour's highest value in the
        // brightest member, as well as at white.
        let width = Self.size.width
        func colour(_ index: Int) -> Int { (index / width % 2) * 2 + index % width % 2 }
        var highest = [UInt16](repeating: 0, count: 4)
        for (index, value) in samples[2].enumerated() { highest[colour(index)] = max(highest[colour(index)], value) }
        let unclipped = samples[0].indices.filter { index in
            samples[2][index] < highest[colour(index)] && samples.allSatisfy { Double($0[index]) < white }
        }
        #expect(unclipped.count > samples[0].count / 4, "\(unclipped.count) unclipped sites")
        let means = samples.map { member in unclipped.reduce(0.0) { $0 + Double(member[$1]) - black } / Double(unclipped.count) }
        for step in 0..<2 {
            let ratio = means[step + 1] / means[step]
            #expect(abs(ratio - 4) <= 0.04 * 4, "members \(step + 1) → \(step + 2): ×\(ratio) (means \(means))")
        }
    }

    /// RAW + processed: each member gives its DNG, then the JPEG developed from it, both with the
    /// member's sequence number and exposure.
    @Test func rawPlusProcessedBracketDeliversBothPerMember() async throws {
        let settings = Self.settings(processed: .jpeg)
        let photos = try await Self.photos(settings)
        try #require(photos.count == 6)
        #expect(photos.map(\.isRawPhoto) == [true, false, true, false, true, false])
        #expect(photos.map(\.sequenceCount) == [1, 1, 2, 2, 3, 3])
        #expect(photos.allSatisfy { $0.photoCount == 6 })
        #expect(photos.map { $0.bracketSettings?.sequenceCount } == [1, 1, 2, 2, 3, 3])
        let folder = try TemporaryDirectory("raw-bracket")
        var jpegMeans: [Double] = []
        for photo in photos {
            let name = "b\(photo.sequenceCount).\(photo.isRawPhoto ? "dng" : "jpg")"
            let file = try folder.write([UInt8](try #require(photo.fileDataRepresentation())), named: name)
            #expect(try ExternalTool.exiftoolValidationProblems(file) == [], "\(name)")
            #expect(try Self.exif(file, "ExposureCompensation") == photo.appliedExposure?.exposureTargetBias, "\(name)")
            let duration = try #require(photo.appliedExposure?.exposureDuration)
            #expect(abs(try #require(try Self.exif(file, "ExposureTime")) / duration - 1) < 1e-6, "\(name)")
            if !photo.isRawPhoto {
                #expect(photo.encodingRoute == .developed)
                jpegMeans.append(BracketCaptureTests.linearLuminance(try ReferenceDecoder.djpeg(file)))
            }
        }
        #expect(jpegMeans == jpegMeans.sorted() && Set(jpegMeans).count == 3, "\(jpegMeans)")
    }
}
