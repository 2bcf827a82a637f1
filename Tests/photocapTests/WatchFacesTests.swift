import Foundation
import PhotoCaptureVision
import Testing
import TestSupport

/// `photocap watch --faces --smart-framing` as a user runs it, on a frame file of one person from
/// the scripted people scene (the still picture `shoot --smart-framing`'s test uses): faces each
/// second near the true box, recommendations printed only when they change, and both drawn on
/// the preview with `--overlay`.
@Suite struct WatchFacesTests {
    /// One per-second report or one recommendation, as `--json` prints them.
    struct Line: Decodable {
        struct Face: Decodable {
            let id: Int
            let x: Double, y: Double, width: Double, height: Double
            let timestamp: UInt64
        }
        struct Recommendation: Decodable {
            let framing: String
            let aspectRatio: String
            let zoomFactor: Double
            let elapsed: Double
        }
        let second: Int?
        let faces: [Face]?
        let faceDetector: String?
        let recommendation: Recommendation?
    }

    @Test func reportsTheFaceEachSecondAndEachNewRecommendationOnce() throws {
        let person = try OnePersonFrame(folderName: "photocap-watch-faces")
        let size = OnePersonFrame.size
        let preview = person.folder.path("view.jpg")
        let run = try ExternalTool.run(TestPaths.photocap, ["watch"] + person.arguments + ["--faces", "--smart-framing", "--duration", "5",
                                                                                            "--json", "--preview-file", preview, "--overlay"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.text.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let reports = lines.filter { $0.second != nil }
        #expect(reports.map(\.second) == [1, 2, 3, 4, 5])
        #expect(reports.allSatisfy { $0.faces != nil }, "--faces puts a faces array in every report")
        #expect(reports.allSatisfy { $0.faceDetector == "YuNet" }, "the detector in use: \(reports.map(\.faceDetector))")

        // The person stays in view: by the last seconds one face, one ID, on the true box.
        let truth = person.face
        let late = reports.suffix(2).map { $0.faces ?? [] }
        #expect(late.allSatisfy { $0.count == 1 }, "\(late)")
        #expect(Set(late.flatMap { $0.map(\.id) }).count == 1, "the ID stays while the person does: \(late)")
        for face in late.joined() {
            #expect(abs(face.x - truth.x) <= 0.15 * truth.width && abs(face.y - truth.y) <= 0.15 * truth.height
                    && abs(face.width - truth.width) <= 0.3 * truth.width, "\(face) vs \(truth)")
            #expect(face.timestamp > 0)
        }

        // Recommendations: at least one, each different from the one before (changes only, not a
        // line a second), ending on the tightest portrait framing holding head and shoulders.
        let framings = lines.compactMap(\.recommendation)
        #expect(!framings.isEmpty)
        #expect(zip(framings, framings.dropFirst()).allSatisfy { $0.framing != $1.framing }, "repeated: \(framings.map(\.framing))")
        #expect(framings.count < reports.count, "\(framings.map(\.framing))")
        #expect(framings.last?.framing == "3:4 ×2" && framings.last?.aspectRatio == "3:4" && framings.last?.zoomFactor == 2,
                "\(framings.map(\.framing))")

        // The last preview (same size as the frame) shows the face's outline around the reported
        // face and the 3:4 ×2 crop's outline: a centred 180x240 box, x 230...409, y 120...359.
        let picture = try ReferenceDecoder.djpeg(preview)
        #expect(picture.size == size)
        func pixels(where test: (UInt8, UInt8, UInt8) -> Bool) -> [(x: Int, y: Int)] {
            (0..<size.height).flatMap { y in (0..<size.width).compactMap { x in
                let p = picture.pixel(x: x, y: y)
                return test(p.r, p.g, p.b) ? (x, y) : nil
            } }
        }
        let green = pixels { r, g, b in g > 170 && r < 110 && b < 110 }
        let magenta = pixels { r, g, b in r > 190 && g < 110 && b > 160 }
        #expect(green.count > 100 && magenta.count > 400, "\(green.count) green, \(magenta.count) magenta pixels")
        if let face = late.last?.first, !green.isEmpty {
            let centre = (x: Double(green.map(\.x).reduce(0, +)) / Double(green.count) / 640,
                          y: Double(green.map(\.y).reduce(0, +)) / Double(green.count) / 480)
            #expect(centre.x > face.x && centre.x < face.x + face.width && centre.y > face.y - face.height && centre.y < face.y + face.height,
                    "outline centred at \(centre), face \(face)")
        }
        #expect(magenta.allSatisfy { (226...413).contains($0.x) && (116...363).contains($0.y) }, "magenta outside the crop's outline")
    }

    @Test func overlayWithoutAPreviewFileIsRefused() throws {
        let run = try ExternalTool.run(TestPaths.photocap, ["watch", "--device", "synthetic", "--faces", "--overlay"])
        #expect(run.status == 64 && run.stderr.contains("--overlay draws onto the preview picture: give --preview-file PATH too"),
                "\(run.stderr)")
        let nothing = try ExternalTool.run(TestPaths.photocap, ["watch", "--device", "synthetic", "--preview-file", "/tmp/never.jpg", "--overlay"])
        #expect(nothing.status == 64 && nothing.stderr.contains("give one or both"), "\(nothing.stderr)")
    }
}
