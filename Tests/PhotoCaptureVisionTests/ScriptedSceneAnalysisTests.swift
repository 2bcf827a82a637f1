import PhotoCaptureVision
import TestSupport
import Testing

/// The real detector, the tracker and the framing algorithm on the scripted people scene,
/// analysed at 10 pictures per second against the script's ground truth.
@Suite struct ScriptedSceneAnalysisTests {
    static func scene() throws -> ScriptedPeopleScene {
        let file = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        return .joiningFriends(portrait: try ReferenceDecoder.imageMagickStored(file),
                               faceInPortrait: PixelRect(x: 175, y: 70, size: PixelSize(width: 90, height: 90)))
    }

    @Test func theSceneDrawsTheFacesWhereTheScriptSays() throws {
        let scene = try Self.scene()
        let size = PixelSize(width: 640, height: 480)
        let detector = try CascadeFaceDetector()
        for time in [1.0, 5.0, 9.0, 13.0] {
            let truth = scene.faces(at: time, in: size)
            let found = try detector.detectFaces(in: LumaPicture(scene.image(at: time, size: size))).map(\.bounds)
            #expect(found.count == truth.count, "at \(time) s: \(found) vs \(truth)")
            for face in truth {
                #expect(found.contains { CascadeFaceDetectorTests.matches($0, face) }, "at \(time) s: \(face) not in \(found)")
            }
        }
        // Deterministic: the same time gives the same picture.
        #expect(scene.image(at: 5.5, size: size) == scene.image(at: 5.5, size: size))
    }

    @Test func facesAndFramingsFollowTheScript() throws {
        let scene = try Self.scene()
        let size = PixelSize(width: 640, height: 480)
        let enabled = [Framing(aspectRatio: .ratio3x4, zoomFactor: 2), Framing(aspectRatio: .ratio3x4),
                       Framing(aspectRatio: .ratio16x9), Framing(aspectRatio: .ratio4x3)]
        var analysis = FaceAnalysis(detector: try CascadeFaceDetector(), analysisSize: PixelSize(width: 320, height: 240))
        var recommender = FramingRecommender(enabledFramings: enabled, uprightSize: size)
        var (frames, rightCount, boundsChecked, boundsOff) = (0, 0, 0, 0)
        var changes: [(time: Double, framing: Framing)] = []
        var idsByPart: [Double: Set<Int>] = [:]
        for step in 0..<160 {
            let time = Double(step) / 10
            let result = try analysis.analyse(LumaPicture(scene.image(at: time, size: size)), at: time)
            let truth = scene.faces(at: time, in: size)
            frames += 1
            if result.faces.count == truth.count { rightCount += 1 }
            for face in result.faces {
                boundsChecked += 1
                if !truth.contains(where: { CascadeFaceDetectorTests.matches(face.bounds, $0) }) { boundsOff += 1 }
            }
            // IDs stay while people stay: after the first second of a part, one ID per person.
            let part = scene.part(at: time)
            if time - part.start >= 1 { idsByPart[part.start, default: []].formUnion(result.faces.map(\.detectedObjectID)) }
            if let change = recommender.update(faces: result.framingFaces.map(\.bounds), at: time) { changes.append((time, change)) }
        }
        #expect(Double(rightCount) >= 0.95 * Double(frames), "face count right in \(rightCount) of \(frames)")
        #expect(boundsOff == 0, "\(boundsOff) of \(boundsChecked) faces off their true box by more than 15%")
        for part in scene.parts where !part.people.isEmpty {
            #expect(idsByPart[part.start]?.count == part.people.count, "IDs in the part from \(part.start) s: \(idsByPart[part.start] ?? [])")
        }
        // The widest until someone is confirmed, then one change per scripted change, each within
        // 1.5 s: a portrait, a wider zoom, a landscape framing, the widest.
        #expect(changes.map(\.framing) == [enabled[3], enabled[0], enabled[1], enabled[2], enabled[3]], "\(changes)")
        for (change, part) in zip(changes.dropFirst(), scene.parts) {
            #expect(change.time >= part.start && change.time <= part.start + 1.5, "\(change) for the part at \(part.start) s")
        }
    }
}
