import Foundation
import PhotoCapture
import PhotoCaptureTesting
import Testing
import TestSupport

/// The product over other projects' orientation sets (TestImages/third-party): every file's
/// displayed picture matches its set's upright reference within the set's stated tolerance, and
/// files whose orientation was broken on purpose (mirrored, rotated twice) are caught and named.
@Suite(.enabled(if: ThirdPartyImages.folder != nil, Comment(rawValue: ThirdPartyImages.absentMessage)))
struct ThirdPartyOrientationSetTests {
    /// One set: its files, the upright reference and the tolerance (mean difference per sample,
    /// 0-255). Each file is its own encode, so none is pixel-identical to its reference;
    /// measured worst cases: recurser 3.7 (each with its own digit), rasteiner 1.2, hopper 4.9,
    /// Pillow's G4 TIFFs 0.7, Pillow's AVIFs 8.6 (own centre labels); a wrong turn or mirror of
    /// any of them is above 20.
    struct OrientationSet: Sendable, CustomStringConvertible {
        let files: [String]
        let reference: String
        let tolerance: Double
        var description: String { reference }
    }

    static let sets: [OrientationSet] = [
        OrientationSet(files: (0...8).map { "recurser-exif-orientation-examples/Landscape_\($0).jpg" },
                       reference: "recurser-exif-orientation-examples/Landscape_1.jpg", tolerance: 5),
        OrientationSet(files: (0...8).map { "recurser-exif-orientation-examples/Portrait_\($0).jpg" },
                       reference: "recurser-exif-orientation-examples/Portrait_1.jpg", tolerance: 5),
        OrientationSet(files: (1...8).map { "rasteiner-exif-orientation-test-images/test_\($0).jpg" },
                       reference: "rasteiner-exif-orientation-test-images/test_1.jpg", tolerance: 2),
        OrientationSet(files: (2...8).map { "pillow-hopper-orientation/hopper_orientation_\($0).jpg" },
                       reference: "pillow-hopper-orientation/hopper.jpg", tolerance: 6),
        OrientationSet(files: (1...8).map { "pillow-tiff-orientation/g4_orientation_\($0).tif" },
                       reference: "pillow-tiff-orientation/g4_orientation_1.tif", tolerance: 2),
        OrientationSet(files: ["rot0mir0", "rot0mir1", "rot1mir0", "rot1mir1", "rot2mir0", "rot2mir1", "rot3mir0", "rot3mir1"]
                           .map { "pillow-avif-rot-mir/\($0).avif" },
                       reference: "pillow-avif-rot-mir/rot0mir0.avif", tolerance: 10),
    ]

    static func path(_ name: String) -> String { ThirdPartyImages.folder!.appendingPathComponent(name).path }

    @Test("each file shows its set's upright reference within tolerance", arguments: sets)
    func everyFileShowsUpright(set: OrientationSet) throws {
        let artifacts = try TestPaths.temporaryFolder("golden-artifacts")
        // Left behind only when a comparison failed and wrote its images there.
        defer { rmdir(artifacts.path) }
        let golden = GoldenImage(Self.path(set.reference), tolerance: GoldenTolerance(meanAbsoluteDifference: set.tolerance),
                                 artifactsFolder: artifacts.path, recording: false)
        for file in set.files {
            let result = try golden.compare(fileAt: Self.path(file))
            #expect(result.failure == nil, "\(file)")
        }
    }

    /// A copy of `file` whose EXIF Orientation exiftool (third-party) set to `value`.
    static func withOrientation(_ file: String, _ value: Int, in folder: TemporaryDirectory) throws -> String {
        let copy = try folder.write([UInt8](Data(contentsOf: URL(fileURLWithPath: Self.path(file)))), named: "\(value)-\(URL(fileURLWithPath: file).lastPathComponent)")
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=\(value)", copy]).checked()
        return copy
    }

    @Test("a mirrored and a rotated-twice file are caught, named, and leave a picture and a difference image",
          arguments: [("recurser-exif-orientation-examples/Landscape_1.jpg", 5.0), ("rasteiner-exif-orientation-test-images/test_1.jpg", 2),
                      ("pillow-hopper-orientation/hopper.jpg", 6)])
    func brokenOrientationIsCaught(file: String, tolerance: Double) throws {
        let folder = try TemporaryDirectory("golden-broken")
        let artifacts = folder.path("artifacts")
        let golden = GoldenImage(Self.path(file), tolerance: GoldenTolerance(meanAbsoluteDifference: tolerance),
                                 artifactsFolder: artifacts, recording: false)
        for (value, turn, words) in [(2, Orientation.upMirrored, "mirrored left-right"), (3, .down, "rotated 180°")] {
            let broken = try Self.withOrientation(file, value, in: folder)
            let result = try golden.compare(fileAt: broken)
            #expect(result.outcome == .differed)
            #expect(result.comparison?.verdict == .orientationDiffers(turn), "\(result)")
            #expect(result.description.contains("differs in orientation: the picture shows the golden \(words)"), "\(result)")
            let actual = try #require(result.actualPath), difference = try #require(result.differencePath)
            #expect(actual.hasPrefix(artifacts) && difference.hasPrefix(artifacts))
            // The picture written is what a viewer (ImageMagick) shows for the broken file.
            let shown = try ReferenceDecoder.imageMagickAutoOriented(broken)
            #expect(try ReferenceDecoder.imageMagickStored(actual) == DisplayedImage(fileAt: broken).image)
            #expect(try DisplayedImage(fileAt: actual).image.meanAbsoluteDifference(to: shown) <= 1.5)
            // The picture compared with the golden turned so, beside the golden: the turn shows.
            #expect(try ReferenceDecoder.imageMagickStored(difference).size
                == PixelSize(width: 2 * shown.size.width + 8, height: shown.size.height))
        }
    }
}
