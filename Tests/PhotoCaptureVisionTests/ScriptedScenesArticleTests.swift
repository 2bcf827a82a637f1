import Foundation
import PhotoCaptureVision
import Synchronization
import Testing
import TestSupport

// The article "Scripted scenes from your own pictures" (PhotoCaptureVision.docc/ScriptedScenes.md),
// its snippets copied as they are (the test below checks that they still are), then run.

/// "One person, a friend joins, three in a row, everyone leaves", `partLength` seconds a part,
/// played by the person in the picture at `portraitPath`.
func friendsScene(portraitPath: String, partLength: Double) throws -> ScriptedPeopleScene {
    // Any JPEG, PNG, HEIC or TIFF of one person.
    let portrait = try ImageDecoder().decode(fileAt: portraitPath).image
    // The face detector finds the face (OpenCV's Haar cascade).
    return try ScriptedPeopleScene.joiningFriends(portrait: portrait, partLength: partLength)
}

/// Keeps every analysed frame's faces.
final class FaceRecorder: MetadataOutputObjectsDelegate {
    let frames = Mutex<[FaceMetadata]>([])

    func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [MetadataFaceObject],
                        from frame: FaceMetadata) {
        frames.withLock { $0.append(frame) }
    }
}

/// Films `scene` for `seconds` and gives, for each analysed frame, how many faces the script
/// shows and how many the metadata output found.
func faceCounts(in scene: ScriptedPeopleScene, seconds: Double) async throws -> [(shown: Int, found: Int)] {
    let size = PixelSize(width: 640, height: 480)
    var camera = CaptureDevice.SyntheticConfiguration(maximumSize: size, framesPerSecond: 30)
    camera.script = scene.syntheticScript
    let session = CaptureSession()
    try session.addInput(CaptureDevice.synthetic(camera))

    let output = try MetadataOutput()  // throws when OpenCV's face model is missing
    let recorder = FaceRecorder()
    output.setMetadataObjectsDelegate(recorder)
    try session.addOutput(output)
    try await session.startRunning()
    try await Task.sleep(for: .seconds(seconds))
    session.removeOutput(output)
    await session.stopRunning()

    let frames = recorder.frames.withLock { $0 }
    guard let first = frames.first else { return [] }
    let start = first.timestamp - first.frameSequence * 1_000_000_000 / 30
    return frames.map { frame in
        (shown: scene.faces(at: Double(frame.timestamp - start) / 1e9, in: size).count, found: frame.faces.count)
    }
}

// The examples in the doc comments of MetadataOutput and MetadataOutputObjectsDelegate, which
// the catalog shows too.

func firstFaces(session: CaptureSession) async throws {
    let faces = try MetadataOutput()         // YuNet (OpenCV's Haar cascade if it cannot load)
    try session.addOutput(faces)
    try await session.startRunning()
    for await frame in faces.faces() where !frame.faces.isEmpty {
        print(frame.faces.map(\.bounds))     // normalised to the upright picture
        break
    }
}

final class FaceCounter: MetadataOutputObjectsDelegate {
    let counts = Mutex<[Int]>([])
    func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [MetadataFaceObject],
                        from frame: FaceMetadata) {
        counts.withLock { $0.append(metadataObjects.count) }
    }
}

@Suite struct ScriptedScenesArticleTests {
    static func file(_ path: String) throws -> String {
        try String(contentsOf: TestPaths.repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines of `code` without their indentation and without imports.
    static func lines(_ code: some StringProtocol) -> String {
        code.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.drop { $0 == " " } }.filter { !$0.hasPrefix("import ") }
            .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The Swift code blocks of a Markdown text.
    static func blocks(_ text: String) -> [String] {
        text.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    @Test("every Swift snippet of the article and of the output's doc comments is in this file as it is (imports and indentation aside), so it compiles")
    func snippetsAreHere() throws {
        let source = Self.lines(try String(contentsOfFile: #filePath, encoding: .utf8))
        let article = Self.blocks(try Self.file("Sources/PhotoCaptureVision/PhotoCaptureVision.docc/ScriptedScenes.md"))
        #expect(article.count == 3)
        var comments: [String] = []
        for path in ["Sources/PhotoCaptureVision/Live/MetadataOutput.swift", "Sources/PhotoCaptureVision/Live/MetadataOutputObjectsDelegate.swift"] {
            let documentation = try Self.file(path).split(separator: "\n").filter { $0.hasPrefix("///") }
                .map { $0.dropFirst(3).drop { $0 == " " } }.joined(separator: "\n")
            comments += Self.blocks(documentation + "\n")
        }
        #expect(comments.count == 2)
        for block in article + comments {
            let code = Self.lines(block)
            #expect(source.contains(code), "not in \(#filePath) as the documentation has it:\n\(code)")
        }
    }

    @Test("the article's code runs: the delegate receives the analysed frames, each with the script's count")
    func theArticleRuns() async throws {
        let portrait = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let scene = try friendsScene(portraitPath: portrait, partLength: 1)
        let counts = try await faceCounts(in: scene, seconds: 2)
        #expect(!counts.isEmpty)
        // The first second shows one person, the next two (frames analysed late still belong to their time).
        #expect(counts.allSatisfy { [1, 2].contains($0.shown) && $0.found <= 3 }, "\(counts)")
    }
}

/// The article's scene run long enough to judge the faces found against the script. Timing-sensitive:
/// `.ci/test` runs it on a quiet machine (`PHOTOCAP_TIMING_TESTS=1`).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PHOTOCAP_TIMING_TESTS"] == "1",
                "timed on a quiet machine: PHOTOCAP_TIMING_TESTS=1"))
struct ScriptedScenesArticleTimingTests {
    @Test("the article's scene from the repository's portrait: the output finds as many faces as the script shows")
    func facesFollowTheScript() async throws {
        let portrait = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let partLength = 2.0
        let scene = try friendsScene(portraitPath: portrait, partLength: partLength)
        let counts = try await faceCounts(in: scene, seconds: 4 * partLength)
        // At least 5 analyses a second.
        #expect(counts.count >= Int(4 * partLength * 5), "\(counts.count) frames analysed")
        let agreeing = counts.filter { $0.shown == $0.found }.count
        // Frames just after a change lag behind; the rest agree.
        #expect(Double(agreeing) >= 0.7 * Double(counts.count), "\(agreeing) of \(counts.count): \(counts)")
        // Every part of the script was seen: one face, two, three, none.
        for shown in [1, 2, 3, 0] {
            #expect(counts.contains { $0.shown == shown && $0.found == shown }, "never found \(shown): \(counts)")
        }
    }
}
