import Codecs
import Foundation
import Imaging
import PhotoCapture
import PhotoCaptureTesting
import Testing
import TestSupport

/// ``GoldenImage``: matching, the files written on a difference, record mode and the sentence;
/// ``OrientationConsistency`` on files made inconsistent on purpose.
@Suite struct GoldenImageTests {
    static let size = PixelSize(width: 96, height: 64)

    /// A JPEG of the quadrants picture stored turned by `stored`, saying `orientation`.
    static func jpeg(stored: Orientation, says orientation: Orientation, thumbnail: Orientation? = nil) throws -> [UInt8] {
        let picture = DisplayedImageTests.quadrants(size).transformed(by: stored)
        let encoded = try JPEGEncoder().encode(picture.planarImage(), quality: 95)
        let thumbnailJPEG = try thumbnail.map { turn in
            try JPEGEncoder().encode(DisplayedImageTests.quadrants(PixelSize(width: 48, height: 32)).transformed(by: turn).planarImage(), quality: 90)
        }
        return try JPEGFile.insertingEXIF(EXIFBuilder.tiffBlock(for: EXIFMetadata(orientation: orientation), thumbnailJPEG: thumbnailJPEG), into: encoded)
    }

    /// A new folder holding photo.jpg, the quadrants stored turned right and saying "turn left to
    /// show" (so shown upright), with the path of an artifacts folder in it (not made).
    static func folderWithPhoto(_ name: String) throws -> (folder: TemporaryDirectory, photo: String, artifacts: String) {
        let folder = try TemporaryDirectory(name)
        let photo = try folder.write(jpeg(stored: .left, says: .right), named: "photo.jpg")
        return (folder, photo, folder.path("artifacts"))
    }

    /// The upright quadrants picture written as the golden `name` in `folder`; its path.
    static func writeGolden(named name: String, in folder: TemporaryDirectory) throws -> String {
        let goldenPath = folder.path(name)
        try DisplayedImageTests.quadrants(size).writePNG(to: goldenPath, overwrite: false)
        return goldenPath
    }

    @Test("a right file matches and writes nothing; the sentence gives the figures")
    func match() throws {
        let (folder, file, _) = try Self.folderWithPhoto("golden-match")
        let goldenPath = try Self.writeGolden(named: "upright.png", in: folder)
        // JPEG's 4:2:0 chroma at the quadrants' edges: mean 2.4 at this small size.
        let result = try GoldenImage(goldenPath, tolerance: GoldenTolerance(meanAbsoluteDifference: 4), recording: false).compare(fileAt: file)
        #expect(result.failure == nil)
        #expect(result.actualPath == nil && result.differencePath == nil)
        #expect(result.description.contains("matches the golden (96x64, mean difference"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["photo.jpg", "upright.png"])
    }

    @Test("a broken orientation fails with a sentence naming it, and leaves the picture and a difference image in the artifacts folder, not beside the golden")
    func brokenOrientation() throws {
        let folder = try TemporaryDirectory("golden-broken")
        let goldenPath = try Self.writeGolden(named: "broken-orientation-upright.png", in: folder)
        let file = try folder.write(Self.jpeg(stored: .left, says: .up), named: "photo.jpg")
        let golden = GoldenImage(goldenPath, recording: false)
        #expect(golden.artifactsFolder == GoldenImage.defaultArtifactsFolder)
        let result = try golden.compare(fileAt: file)
        #expect(result.outcome == .differed)
        let failure = try #require(result.failure)
        #expect(failure.contains("differs in orientation: the picture shows the golden rotated 90° counter-clockwise (the picture is 64x96, the golden 96x64)"), "\(failure)")
        let artifacts = URL(fileURLWithPath: GoldenImage.defaultArtifactsFolder)
        let actualPath = artifacts.appendingPathComponent("broken-orientation-upright.actual.png").path
        let differencePath = artifacts.appendingPathComponent("broken-orientation-upright.diff.png").path
        defer { [actualPath, differencePath].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        #expect(result.actualPath == actualPath && result.differencePath == differencePath)
        #expect(failure.contains("wrote the picture to \(actualPath) and the picture compared with the golden rotated 90° counter-clockwise "
                                 + "(left, red where more than that differs) and the golden (right) side by side to \(differencePath)"), "\(failure)")
        // Nothing beside the golden.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["broken-orientation-upright.png", "photo.jpg"])
        let shown = try ReferenceDecoder.imageMagickStored(actualPath)
        #expect(shown.size == PixelSize(width: 64, height: 96))
        // Turned: the picture compared with the golden turned so (left: the turn explains it, so
        // strong red only along the quadrants' edges, where JPEG rings) beside the golden
        // (right), 8 pixels apart.
        let sideBySide = try ReferenceDecoder.imageMagickStored(differencePath)
        #expect(sideBySide.size == PixelSize(width: 64 + 8 + 96, height: 96))
        let residue = sideBySide.cropped(to: PixelRect(x: 0, y: 0, size: shown.size))
        #expect(Self.stronglyRed(residue) < 0.1, "the turned comparison is red at \(Self.stronglyRed(residue))")
        #expect(sideBySide.cropped(to: PixelRect(x: 72, y: 0, size: Self.size)) == (try ReferenceDecoder.imageMagickStored(goldenPath)))

        // Same size, mirrored: not a picture all red (every quadrant against its neighbour) but
        // the same side by side, the mirror undone on the left.
        let mirrored = try folder.write(Self.jpeg(stored: .up, says: .upMirrored), named: "mirrored.jpg")
        let second = try golden.compare(fileAt: mirrored)
        #expect(second.comparison?.verdict == .orientationDiffers(.upMirrored))
        #expect(second.description.contains("the picture compared with the golden mirrored left-right"), "\(second)")
        let difference = try ReferenceDecoder.imageMagickStored(try #require(second.differencePath))
        #expect(difference.size == PixelSize(width: 96 + 8 + 96, height: 64))
        let left = difference.cropped(to: PixelRect(x: 0, y: 0, size: Self.size))
        #expect(Self.stronglyRed(left) < 0.1, "the mirrored comparison is red at \(Self.stronglyRed(left))")
        // What the plain difference image was, and the measure tells apart: strongly red.
        let plain = try #require(ImageComparison.differenceImage(actual: DisplayedImage(fileAt: mirrored).image,
                                                                 golden: ReferenceDecoder.imageMagickStored(goldenPath)))
        #expect(Self.stronglyRed(plain) > 0.5, "the plain difference is red at \(Self.stronglyRed(plain))")
    }

    /// The share of pixels a difference image marks as differing by more than JPEG's noise
    /// (red from 200: a difference of 34 and more).
    static func stronglyRed(_ image: RGBImage) -> Double {
        var count = 0
        for y in 0..<image.size.height {
            for x in 0..<image.size.width {
                let pixel = image.pixel(x: x, y: y)
                if pixel.r >= 200 && pixel.g < 100 { count += 1 }
            }
        }
        return Double(count) / Double(image.size.area)
    }

    @Test("the default artifacts folder is in the build folder the tests run from, outside the sources")
    func defaultArtifactsFolder() throws {
        // SwiftPM runs the tests from .build/<triple>/debug/NAMEPackageTests.xctest.
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let build = try #require(program.range(of: "/.build/").map { String(program[..<$0.lowerBound]) + "/.build" }, "\(program)")
        if ProcessInfo.processInfo.environment[GoldenImage.artifactsEnvironmentVariable] == nil {
            #expect(GoldenImage.defaultArtifactsFolder == build + "/golden-artifacts")
        }
        #expect(GoldenImage("Goldens/x.png", artifactsFolder: "/tmp/elsewhere").artifactsFolder == "/tmp/elsewhere")
    }

    @Test("verify throws the failure sentence as the error's description; a match returns quietly")
    func verify() throws {
        let folder = try TemporaryDirectory("golden-verify")
        let artifacts = folder.path("artifacts")
        let goldenPath = try Self.writeGolden(named: "upright.png", in: folder)
        let golden = GoldenImage(goldenPath, tolerance: GoldenTolerance(meanAbsoluteDifference: 4), artifactsFolder: artifacts, recording: false)
        let right = try folder.write(Self.jpeg(stored: .left, says: .right), named: "right.jpg")
        #expect(try golden.verify(fileAt: right).isMatch)
        let wrong = try folder.write(Self.jpeg(stored: .down, says: .up), named: "wrong.jpg")
        let error = try #require(throws: GoldenImageError.self) { try golden.verify(fileAt: wrong) }
        guard case .mismatch(let result) = error.code else { Issue.record("\(error)"); return }
        #expect(result.outcome == .differed && error.path == goldenPath)
        #expect("\(error)" == result.description)
        #expect("\(error)".hasPrefix("\(goldenPath): differs in orientation: the picture shows the golden rotated 180°"), "\(error)")
        #expect("\(error)".contains("wrote the picture to \(artifacts)/upright.actual.png"), "\(error)")
        // A recorded golden is no match either.
        let recording = GoldenImage(folder.path("new.png"), artifactsFolder: artifacts, recording: true)
        let recorded = try #require(throws: GoldenImageError.self) { try recording.verify(fileAt: right) }
        #expect("\(recorded)".contains("recorded the golden"), "\(recorded)")
    }

    @Test("pixels beyond the tolerance: the mean, the maximum and the PSNR each fail on their own")
    func tolerances() throws {
        let golden = DisplayedImageTests.quadrants(Self.size)
        var changed = golden
        for index in 0..<30 { changed.pixels[index] = changed.pixels[index] &+ 100 }
        #expect(ImageComparison(actual: changed, golden: golden).isWithinTolerance)
        let byMaximum = ImageComparison(actual: changed, golden: golden, tolerance: GoldenTolerance(maximumAbsoluteDifference: 50))
        #expect(byMaximum.verdict == .pixelsDiffer)
        #expect(byMaximum.description.hasPrefix("differs in pixels beyond the tolerance: mean difference 0.19, max 156, PSNR 34.32 dB over 96x64; tolerance mean ≤ 2, max ≤ 50"), "\(byMaximum)")
        let byPSNR = ImageComparison(actual: changed, golden: golden, tolerance: GoldenTolerance(minimumPSNR: 40))
        #expect(byPSNR.verdict == .pixelsDiffer, "\(byPSNR)")
        #expect(ImageComparison(actual: golden, golden: golden).psnr == .infinity)
        let other = ImageComparison(actual: golden, golden: DisplayedImageTests.quadrants(PixelSize(width: 90, height: 64)))
        #expect(other.verdict == .sizeDiffers)
        #expect(other.description == "differs in size: the picture is 96x64, the golden 90x64")
    }

    @Test("record mode writes the golden as PNG and says so; it is not a match")
    func record() throws {
        let (folder, file, artifacts) = try Self.folderWithPhoto("golden-record")
        let goldenPath = folder.path("goldens/new.png")
        let missing = try GoldenImage(goldenPath, artifactsFolder: artifacts, recording: false).compare(fileAt: file)
        #expect(missing.outcome == .missing)
        #expect(missing.failure?.contains("no golden; wrote the picture to \(artifacts)/new.actual.png") == true, "\(missing)")
        let recorded = try GoldenImage(goldenPath, recording: true).compare(fileAt: file)
        #expect(recorded.outcome == .recorded)
        #expect(recorded.failure?.contains("recorded the golden") == true)
        #expect(try GoldenImage(goldenPath, recording: false).compare(fileAt: file).isMatch, "the same file against its own recording")
        // Re-recording replaces it.
        let other = try folder.write(Self.jpeg(stored: .left, says: .up), named: "other.jpg")
        #expect(try GoldenImage(goldenPath, recording: true).compare(fileAt: other).outcome == .recorded)
        #expect(try ReferenceDecoder.imageMagickStored(goldenPath).size == PixelSize(width: 64, height: 96))
        #expect { try GoldenImage(folder.path("golden.jpg"), recording: true).compare(fileAt: file) } throws: {
            ($0 as? GoldenImageError)?.code == .recordingNeedsPNG
        }
    }

    /// A client's test whose golden was never recorded, run twice with recording off: each run
    /// fails, nothing is written where the golden belongs, and the picture is left with the
    /// failure images, its path in the sentence.
    @Test("a missing golden fails every run and is written only with the artifacts")
    func missingGoldenIsNeverRecordedUnasked() throws {
        let (folder, file, artifacts) = try Self.folderWithPhoto("golden-missing")
        let goldenPath = folder.path("Goldens/held-turned.png")
        for run in 1...2 {
            let golden = GoldenImage(goldenPath, artifactsFolder: artifacts, recording: false)
            let error = try #require(throws: GoldenImageError.self, "run \(run)") { try golden.verify(fileAt: file) }
            guard case .mismatch(let result) = error.code else { Issue.record("\(error)"); return }
            #expect(result.outcome == .missing && !result.isMatch, "run \(run): \(result)")
            #expect(!FileManager.default.fileExists(atPath: goldenPath), "run \(run) recorded the golden unasked")
            #expect(!FileManager.default.fileExists(atPath: folder.path("Goldens")))
            let candidate = artifacts + "/held-turned.actual.png"
            #expect(result.actualPath == candidate)
            #expect("\(error)".contains("no golden") && "\(error)".contains(candidate), "\(error)")
            #expect(try ReferenceDecoder.imageMagickStored(candidate).size == Self.size)
        }
    }

    /// A relative golden path is the test file's folder's, wherever the tests run from.
    @Test("a relative golden path resolves beside the test file")
    func relativePathIsBesideTheTestFile() throws {
        let besideThisFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        #expect(GoldenImage("Goldens/held-turned.png").path == besideThisFile.appendingPathComponent("Goldens/held-turned.png").path)
        #expect(GoldenImage("/tmp/goldens/x.png").path == "/tmp/goldens/x.png")
    }

    @Test("the environment variable turns record mode on")
    func environment() throws {
        #expect(GoldenImage.recordEnvironmentVariable == "PHOTOCAP_RECORD_GOLDENS")
        #expect(GoldenImage("x.png").isRecording == GoldenImage.isRecordModeRequested)
    }

    @Test("consistency: a JPEG thumbnail turned against the picture, a HEIC whose EXIF disagrees with irot")
    func consistency() throws {
        let folder = try TemporaryDirectory("golden-consistency")
        let good = try folder.write(Self.jpeg(stored: .left, says: .right, thumbnail: .left), named: "good.jpg")
        #expect(try OrientationConsistency.problems(inFileAt: good) == [])
        let mirrored = try folder.write(Self.jpeg(stored: .up, says: .up, thumbnail: .upMirrored), named: "mirrored.jpg")
        #expect(try OrientationConsistency.problems(inFileAt: mirrored) == ["the thumbnail shows the picture mirrored left-right"])
        let quarter = try folder.write(Self.jpeg(stored: .up, says: .up, thumbnail: .right), named: "quarter.jpg")
        #expect(try OrientationConsistency.problems(inFileAt: quarter).first?.contains("turned a quarter") == true)

        let planar = try DisplayedImageTests.quadrants(Self.size).planarImage()
        let exif = try EXIFBuilder.tiffBlock(for: EXIFMetadata(orientation: .up), thumbnailJPEG: nil)
        let heic = try HEICEncoder(preset: .ultrafast).encode(planar, quality: 90, orientation: .right, thumbnail: nil, exif: exif)
        let disagreeing = try folder.write(heic, named: "disagree.heic")
        let problems = try OrientationConsistency.problems(inFileAt: disagreeing)
        #expect(problems.count == 1 && problems[0].contains("disagrees with its irot/imir"), "\(problems)")
        let agreeing = try HEICEncoder(preset: .ultrafast).encode(
            planar, quality: 90, orientation: .right, thumbnail: nil,
            exif: try EXIFBuilder.tiffBlock(for: EXIFMetadata(orientation: .right), thumbnailJPEG: nil))
        #expect(try OrientationConsistency.problems(inFileAt: folder.write(agreeing, named: "agree.heic")) == [])

        // verify: quiet when consistent; else an error whose description names the file and every problem.
        try OrientationConsistency.verify(fileAt: good)
        let error = try #require(throws: GoldenImageError.self) { try OrientationConsistency.verify(fileAt: mirrored) }
        #expect(error.code == .inconsistentOrientation(problems: ["the thumbnail shows the picture mirrored left-right"]))
        #expect("\(error)" == "\(mirrored): orientation metadata disagrees: the thumbnail shows the picture mirrored left-right")
    }
}
