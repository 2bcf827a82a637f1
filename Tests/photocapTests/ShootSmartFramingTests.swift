import Foundation
import PhotoCaptureVision
import Testing
import TestSupport

/// `photocap shoot --smart-framing` as a user runs it, on a frame file of one person from the
/// scripted people scene.
@Suite struct ShootSmartFramingTests {
    @Test func framesTheOnePersonInPortraitAndReportsTheFace() throws {
        let person = try OnePersonFrame(folderName: "photocap-smart-framing")
        let path = person.folder.path("person.jpg")
        let run = try ExternalTool.run(TestPaths.photocap, ["shoot"] + person.arguments + ["--smart-framing", "--framing-timeout", "10",
                                                                                            "--output", path, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let framing = try #require(report["smartFraming"] as? [String: Any])
        // One centred person: the tightest portrait framing holding head and shoulders.
        #expect(framing["framing"] as? String == "3:4 ×2", "\(framing)")
        let faces = try #require(framing["faces"] as? [[String: Any]])
        #expect(faces.count == 1)
        let truth = person.face
        if let face = faces.first, let x = face["x"] as? Double, let width = face["width"] as? Double {
            #expect(abs(x - truth.x) <= 0.15 * truth.width && abs(width - truth.width) <= 0.3 * truth.width, "\(face) vs \(truth)")
        }
        #expect(report["dimensions"] as? [String: Int] == ["width": 180, "height": 240])
    }

    @Test func smartFramingExcludesAspectAndZoom() throws {
        let run = try ExternalTool.run(TestPaths.photocap, ["shoot", "--device", "synthetic", "--smart-framing", "--aspect", "1:1"])
        #expect(run.status == 64 && run.stderr.contains("--smart-framing chooses the aspect ratio and zoom"), "\(run.stderr)")
    }
}
