import Foundation
import Testing
import TestSupport

/// `--frame-file clip.y4m`: `shoot` takes its photo from the clip, `watch` plays it at its rate
/// and stops at its last frame, and a clip that is not 4:2:0 is refused by name.
@Suite struct ClipCommandTests {
    /// A 3-second 10 fps clip of a licensed photo, made by ffmpeg.
    static func makeClip(in folder: URL) throws -> String {
        let clip = folder.appendingPathComponent("clip.y4m").path
        let photo = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-loop", "1", "-i", photo, "-vf", "scale=320:240,format=yuv420p",
                                                   "-t", "3", "-r", "10", "-f", "yuv4mpegpipe", clip])
        #expect(made.status == 0, "\(made.stderr)")
        return clip
    }

    @Test func shootTakesAPhotoOfTheClipsSize() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.makeClip(in: folder)
        let photo = folder.appendingPathComponent("shot.jpg").path
        let run = try ExternalTool.run(TestPaths.photocap, ["shoot", "--frame-file", clip, "--output", photo])
        #expect(run.status == 0, "\(run.stderr)")
        let size = try ExternalTool.run("exiftool", ["-s3", "-ImageSize", photo]).text
        #expect(size.trimmingCharacters(in: .whitespacesAndNewlines) == "320x240")
        // The header says the size: a --frame-size beside a clip is refused.
        let sized = try ExternalTool.run(TestPaths.photocap, ["shoot", "--frame-file", clip, "--frame-size", "320x240"])
        #expect(sized.status == 64 && sized.stderr.contains("gives its own format and size"), "\(sized.stderr)")
    }

    /// A clip of one frame: the frame playing when the photo is asked for is the photo's, though
    /// none follows it.
    @Test func shootTakesTheOneFrameOfAOneFrameClip() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("one.y4m").path
        let photo = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-i", photo, "-vf", "scale=320:240,format=yuv420p",
                                                   "-frames:v", "1", "-f", "yuv4mpegpipe", clip])
        #expect(made.status == 0, "\(made.stderr)")
        for index in 0..<3 {
            let shot = folder.appendingPathComponent("shot\(index).jpg").path
            let run = try ExternalTool.run(TestPaths.photocap, ["shoot", "--frame-file", clip, "--output", shot])
            #expect(run.status == 0, "\(run.stderr)")
            let size = try ExternalTool.run("exiftool", ["-s3", "-ImageSize", shot]).text
            #expect(size.trimmingCharacters(in: .whitespacesAndNewlines) == "320x240")
        }
    }

    @Test func watchPlaysTheClipAtItsRateAndStopsAtItsEnd() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.makeClip(in: folder)
        let started = Date()
        let run = try ExternalTool.run(TestPaths.photocap, ["watch", "--frame-file", clip, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("the clip ended"), "\(run.stderr)")
        // 30 frames at 10 fps: about three seconds, not the endless run of a camera.
        #expect(Date().timeIntervalSince(started) < 10)
        struct Line: Decodable { let second: Int; let framesPerSecond: Double; let framesStreamed: Int }
        let lines = try run.text.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        let first = try #require(lines.first)
        #expect(first.framesPerSecond > 8 && first.framesPerSecond < 12, "\(first.framesPerSecond) fps")
        #expect(lines.allSatisfy { $0.framesStreamed <= 30 })
    }

    @Test func aClipThatIsNot420IsRefusedByName() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("c444.y4m").path
        try Data("YUV4MPEG2 W64 H48 F10:1 C444\nFRAME\n".utf8).write(to: URL(fileURLWithPath: clip))
        let run = try ExternalTool.run(TestPaths.photocap, ["watch", "--frame-file", clip])
        #expect(run.status == 1)
        #expect(run.stderr.contains("chroma 444 is not played"), "\(run.stderr)")
    }
}
