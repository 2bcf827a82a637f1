import Foundation
import Testing
import TestSupport

/// `watch --auto-framing` on a clip made from a real group photo (TestImages/faces/
/// TeamMeeting2019.jpg, LPPL): one person, a second entering outside the framing applied for
/// the first, five, nobody — 3 s each. The camera must follow: 1.5 s into each scene the framing
/// in effect holds every face's centre (nobody: the whole picture), one person is framed tighter
/// than the whole picture, and no scene sees more than two changes. Timing-sensitive (the clip
/// plays in real time and the analysis must keep up): run on a quiet machine,
/// `PHOTOCAP_TIMING_TESTS=1`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PHOTOCAP_TIMING_TESTS"] == "1",
                "timed on a quiet machine: PHOTOCAP_TIMING_TESTS=1"))
struct AutoFramingTimingTests {
    static let clipSize = (width: 480, height: 360)
    static let sceneLength = 3.0

    /// A person cut from the photo: the hand-marked face box (x, y, width, height; from
    /// GroupPhotoFaceDetectionTests) widened to head and shoulders, enlarged 1.5 times.
    struct Person {
        let face: (x: Double, y: Double, width: Double, height: Double)
        var cut: (x: Int, y: Int, width: Int, height: Int) {
            (Int((face.x + face.width / 2 - 1.1 * face.width).rounded()), Int((face.y - 0.5 * face.height).rounded()),
             Int((2.2 * face.width).rounded()), Int((3.5 * face.height).rounded()))
        }
        /// The face's centre in the clip when the cut's top-left corner is placed at `origin`.
        func faceCentre(placedAt origin: (x: Int, y: Int)) -> (x: Double, y: Double) {
            (Double(origin.x) + (face.x + face.width / 2 - Double(cut.x)) * 1.5,
             Double(origin.y) + (face.y + face.height / 2 - Double(cut.y)) * 1.5)
        }
    }

    static let people = [Person(face: (295, 129, 31, 35)), Person(face: (399, 120, 31, 32)), Person(face: (672, 129, 29, 33)),
                         Person(face: (908, 161, 32, 34)), Person(face: (1182, 136, 30, 33))]
    static let places = [(x: 0, y: 60), (x: 95, y: 60), (x: 192, y: 60), (x: 285, y: 60), (x: 381, y: 60)]
    /// Who is in view in each scene, by index: the man in the middle; a second at the far right;
    /// all five; nobody.
    static let scenes: [[Int]] = [[2], [2, 4], [0, 1, 2, 3, 4], []]

    /// The clip, made by ImageMagick (the scenes) and ffmpeg (25 fps, 4:2:0 YUV4MPEG2).
    static func makeClip(in folder: URL) throws -> String {
        let photo = TestPaths.testImages.appendingPathComponent("faces/TeamMeeting2019.jpg").path
        var inputs: [String] = []
        for (index, scene) in scenes.enumerated() {
            let picture = folder.appendingPathComponent("scene\(index).png").path
            var arguments = ["-size", "\(clipSize.width)x\(clipSize.height)", "xc:#808080"]
            for person in scene {
                let cut = people[person].cut
                arguments += ["(", photo, "-crop", "\(cut.width)x\(cut.height)+\(cut.x)+\(cut.y)", "+repage", "-resize", "150%", ")",
                              "-geometry", "+\(places[person].x)+\(places[person].y)", "-composite"]
            }
            let made = try ExternalTool.run("convert", arguments + [picture])
            #expect(made.status == 0, "\(made.stderr)")
            inputs += ["-loop", "1", "-framerate", "25", "-t", "\(Int(sceneLength))", "-i", picture]
        }
        let clip = folder.appendingPathComponent("people.y4m").path
        let streams = (0..<scenes.count).map { "[\($0)]" }.joined()
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-y"] + inputs
            + ["-filter_complex", "\(streams)concat=n=\(scenes.count):v=1:a=0,format=yuv420p", "-f", "yuv4mpegpipe", clip])
        #expect(made.status == 0, "\(made.stderr)")
        return clip
    }

    struct Applied: Decodable {
        struct Crop: Decodable { let x, y, width, height: Int }
        let event: String
        let time: Double
        let aspectRatio: String
        let zoomFactor: Double
        let crop: Crop

        func holds(_ point: (x: Double, y: Double)) -> Bool {
            point.x >= Double(crop.x) && point.x <= Double(crop.x + crop.width)
                && point.y >= Double(crop.y) && point.y <= Double(crop.y + crop.height)
        }
        var isWhole: Bool { crop.x == 0 && crop.y == 0 && crop.width == clipSize.width && crop.height == clipSize.height }
    }

    @Test func theCameraFollowsPeopleComingAndGoing() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.makeClip(in: folder)
        let run = try ExternalTool.run(TestPaths.photocap, ["watch", "--frame-file", clip, "--auto-framing", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let applied = run.text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Applied.self, from: Data($0.utf8)) }
        print("auto-framing: " + applied.map { "\($0.aspectRatio) ×\($0.zoomFactor) at \($0.time) s" }.joined(separator: ", "))
        let everything = Applied(event: "framing", time: 0, aspectRatio: "4:3", zoomFactor: 1,
                                 crop: .init(x: 0, y: 0, width: Self.clipSize.width, height: Self.clipSize.height))
        for (index, scene) in Self.scenes.enumerated() {
            let start = Double(index) * Self.sceneLength
            let inEffect = applied.last { $0.time <= start + 1.5 } ?? everything
            let centres = scene.map { Self.people[$0].faceCentre(placedAt: Self.places[$0]) }
            let label = "scene \(index) (\(scene.count) people): \(inEffect.aspectRatio) ×\(inEffect.zoomFactor) \(inEffect.crop)"
            if centres.isEmpty {
                #expect(inEffect.isWhole, "\(label) with nobody in view")
            } else {
                #expect(centres.allSatisfy(inEffect.holds), "\(label) leaves out a face of \(centres)")
            }
            let changes = applied.filter { $0.time >= start && $0.time < start + Self.sceneLength }
            #expect(changes.count <= 2, "\(label): \(changes.count) changes")
        }
        // The person alone is framed tighter than the whole picture.
        let alone = applied.last { $0.time < Self.sceneLength }
        #expect(alone.map { !$0.isWhole } == true, "one person: \(String(describing: alone))")
    }
}
