import Codecs
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// `photocap shoot --aspect --zoom` as a user runs it: the file a viewer shows has the ratio and
/// is the centre of the scene, and `--json` says how it was cropped.
@Suite struct ShootAspectTests {
    static func photocap(_ arguments: [String]) throws -> ExternalTool.Output {
        try ExternalTool.run(TestPaths.photocap, arguments)
    }

    /// 3:4 portrait with the sensor mounted at 90° and compensation off: the stored pixels are
    /// a 4:3 landscape crop of the sensor's frame with orientation 8, and a viewer shows 3:4.
    @Test func portraitFromARotatedSensorWithoutCompensation() throws {
        let folder = try TemporaryDirectory("photocap-shoot-aspect")
        let path = folder.path("portrait.jpg")
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--sensor-rotation", "90", "--no-compensation",
                                     "--size", "1000x750", "--aspect", "1:1", "--zoom", "1.5", "--output", path, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let crop = try #require(report["crop"] as? [String: Any])
        #expect(crop["method"] as? String == "software")
        #expect(crop["aspectRatio"] as? String == "1:1")
        #expect(crop["zoomFactor"] as? Double == 1.5)
        #expect(crop["sensorCrop"] as? [String: Int] == ["x": 250, "y": 126, "width": 500, "height": 500])
        #expect(crop["hardwareCrop"] == nil)
        #expect(report["orientationWritten"] as? Int == 8)
        #expect(report["dimensions"] as? [String: Int] == ["width": 500, "height": 500])
        // The viewer's picture: the centre of the upright scene, a third of its short side gone.
        let shown = try ReferenceDecoder.imageMagickAutoOriented(path)
        let upright = SyntheticScene.image(size: PixelSize(width: 750, height: 1000))
        #expect(shown.size == PixelSize(width: 500, height: 500))
        #expect(shown.meanAbsoluteDifference(to: upright.cropped(to: PixelRect(x: 125, y: 250, size: shown.size))) <= 4)
        #expect(try ExternalTool.exiftoolValidationProblems(path) == [])
    }

    @Test func textOutputNamesTheCrop() throws {
        let folder = try TemporaryDirectory("photocap-shoot-aspect")
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--size", "1000x750", "--aspect", "16:9",
                                     "--output", folder.url.path + "/"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.text.contains("jpeg 1000x562") && run.text.contains("16:9 crop 1000x562+0+94 (software)"), "\(run.text)")
    }

    @Test(arguments: [
        (["--aspect", "5:4"], "'5:4' is invalid for '--aspect"),
        (["--aspect", "16x9"], "'16x9' is invalid for '--aspect"),
        (["--zoom", "0.5"], "--zoom must be from 1 to 8, got 0.5"),
        (["--zoom", "9"], "--zoom must be from 1 to 8, got 9.0"),
        (["--input", "1"], "--input selects an input of a V4L2 --device"),
    ])
    func badFramingIsRejectedBeforeCapture(_ arguments: [String], _ message: String) throws {
        let folder = try TemporaryDirectory("photocap-shoot-aspect")
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--output", folder.url.path + "/"] + arguments)
        #expect(run.status != 0)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
