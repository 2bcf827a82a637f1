import Foundation
import Testing
import TestSupport

/// `photocap watch` as a user runs it: one report a second from the live session, an upright
/// preview kept whole on disk, and Ctrl-C ending with status 130 and nothing left behind.
@Suite struct WatchCommandTests {
    struct Line: Decodable {
        let second: Int
        let framesPerSecond: Double
        let framesStreamed: Int
        let dropped: [String: Int]
        let sceneStatus: String
        let preview: String?
    }

    @Test func reportsOneJSONLineASecondAndKeepsAPreview() throws {
        let folder = try TestPaths.temporaryFolder()
        let preview = folder.appendingPathComponent("view.jpg").path
        let run = try ExternalTool.run(TestPaths.photocap, ["watch", "--device", "synthetic", "--duration", "3", "--json",
                                                            "--preview-file", preview])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.text.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        #expect(lines.map(\.second) == [1, 2, 3])
        // The synthetic camera runs at 30 fps; a loaded machine may slow the report loop, not the stream.
        let last = try #require(lines.last)
        #expect(last.framesPerSecond > 20 && last.framesPerSecond < 40, "\(last.framesPerSecond) fps")
        #expect(last.framesStreamed > 60)
        #expect(last.dropped["video"] != nil && last.sceneStatus == "normal")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: preview))
        #expect(bytes.prefix(2) == Data([0xFF, 0xD8]) && bytes.suffix(2) == Data([0xFF, 0xD9]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["view.jpg"])
    }

    @Test func controlCStopsWithStatus130AndLeavesNothingBehind() async throws {
        let folder = try TestPaths.temporaryFolder()
        let preview = folder.appendingPathComponent("view.jpg").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.photocap)
        process.arguments = ["watch", "--device", "synthetic", "--preview-file", preview]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait (bounded) for the first report, then interrupt as a terminal's Ctrl-C does.
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: preview), Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(process.processIdentifier, SIGINT)
        let stop = Date().addingTimeInterval(10)
        while process.isRunning, Date() < stop { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { process.terminate() }
        #expect(!process.isRunning)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["view.jpg"])
    }
}
