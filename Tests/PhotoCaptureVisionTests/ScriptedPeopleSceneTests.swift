import Foundation
import PhotoCaptureVision
import Testing
import TestSupport

/// ``ScriptedPeopleScene`` made from a portrait without a face box: the detector finds the face,
/// and refuses portraits with none or several.
@Suite struct ScriptedPeopleSceneTests {
    static func picture(_ name: String) throws -> RGBImage {
        try ReferenceDecoder.imageMagickStored(TestPaths.testImages.appendingPathComponent("faces/\(name)").path)
    }

    @Test("the face found in the astronaut portrait is the one marked by hand; the scene draws it where the script says")
    func faceFound() throws {
        let portrait = try Self.picture("astronaut.png")
        let face = try ScriptedPeopleScene.face(in: portrait)
        // Marked by hand (hairline to chin): 175,70 90x90; the cascade's box is a little tighter.
        let marked = NormalizedRect(PixelRect(x: 175, y: 70, size: PixelSize(width: 90, height: 90)), in: portrait.size)
        #expect(CascadeFaceDetectorTests.matches(NormalizedRect(face, in: portrait.size), marked, tolerance: 0.3), "\(face)")
        let scene = try ScriptedPeopleScene.joiningFriends(portrait: portrait)
        #expect(scene.faceInPortrait == face)
        let size = PixelSize(width: 640, height: 480)
        let detector = try CascadeFaceDetector()
        for time in [1.0, 5.0, 9.0] {
            let truth = scene.faces(at: time, in: size)
            let found = try detector.detectFaces(in: LumaPicture(scene.image(at: time, size: size))).map(\.bounds)
            #expect(found.count == truth.count, "at \(time) s: \(found) vs \(truth)")
            for box in truth { #expect(found.contains { CascadeFaceDetectorTests.matches($0, box) }, "at \(time) s: \(box) not in \(found)") }
        }
    }

    @Test("no face, or a group: a clear error; a detector that fails: its error, chained")
    func refused() throws {
        let plain = RGBImage(size: PixelSize(width: 64, height: 48), pixels: [UInt8](repeating: 90, count: 64 * 48 * 3))
        #expect(throws: ScriptedSceneError.noFace(portraitSize: PixelSize(width: 64, height: 48))) {
            try ScriptedPeopleScene(parts: [], portrait: plain)
        }
        let group = try Self.picture("TeamMeeting2019.jpg")
        let error = try #require(throws: ScriptedSceneError.self) { try ScriptedPeopleScene.joiningFriends(portrait: group) }
        guard case .severalFaces(let boxes) = error else { Issue.record("\(error)"); return }
        #expect(boxes.count > 10, "\(boxes.count) faces")
        #expect("\(error)".contains("found \(boxes.count) faces in the portrait"))
        struct Failing: FaceDetecting {
            func detectFaces(in picture: LumaPicture) throws(FaceDetectionError) -> [DetectedFace] { throw .detectionFailed(message: "broken") }
        }
        #expect(throws: ScriptedSceneError.detectionFailed(.detectionFailed(message: "broken"))) {
            try ScriptedPeopleScene.face(in: plain, detector: Failing())
        }
    }
}
