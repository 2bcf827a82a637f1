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
        defer { try? FileManager.default.removeItem(at: folder) }
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
        defer { try? FileManager.default.removeItem(at: folder) }
        let preview = folder.appendingPathComponent("view.jpg").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.photocap)
        process.arguments = ["watch", "--device", "synthetic", "--preview-file", preview]
        // Not a pipe nobody reads: one that fills (after some minutes of reports, on a machine
        // so busy that this task waits that long) would stall watch in a write, deaf to Ctrl-C.
        process.standardOutput = FileHandle.nullDevice
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

    /// Open descriptors and resident memory of process `pid`, the least of five readings 100 ms
    /// apart (a preview being written holds one more descriptor for a moment).
    static func settledResources(of pid: Int32) async throws -> (descriptors: Int, residentMB: Double)? {
        var readings: [(descriptors: Int, residentMB: Double)] = []
        for _ in 0..<5 {
            if let reading = resources(of: pid) { readings.append(reading) }
            try await Task.sleep(for: .milliseconds(100))
        }
        guard !readings.isEmpty else { return nil }
        return (readings.map(\.descriptors).min()!, readings.map(\.residentMB).min()!)
    }

    /// Open descriptors and resident memory of process `pid`, from /proc.
    static func resources(of pid: Int32) -> (descriptors: Int, residentMB: Double)? {
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"),
              let statm = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8),
              let pages = Double(statm.split(separator: " ")[1]) else { return nil }
        return (fds.count, pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576)
    }

    /// The soak: the synthetic camera at 30 fps with a video data output attached and a photo a
    /// second (the preview), for PHOTOCAP_SOAK_SECONDS (CI runs 60 beside the sanitizer's stage;
    /// the 10-minute run is 600). Descriptors and memory after the warm-up and at the end must
    /// match. The warm-up is long: measured on the debug build, RSS climbs for about 40 s
    /// (encoder state, converter pools, one malloc arena per worker thread) and then stays flat.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PHOTOCAP_SOAK_SECONDS"] != nil), .timeLimit(.minutes(15)))
    func soakKeepsDescriptorsAndMemoryFlat() async throws {
        let seconds = max(50, ProcessInfo.processInfo.environment["PHOTOCAP_SOAK_SECONDS"].flatMap(Int.init) ?? 60)
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The reports go to a file: a pipe nobody reads fills after about 400 lines and would stall watch.
        let reports = folder.appendingPathComponent("reports.jsonl")
        #expect(FileManager.default.createFile(atPath: reports.path, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.photocap)
        process.arguments = ["watch", "--device", "synthetic", "--duration", String(seconds), "--json",
                             "--preview-file", folder.appendingPathComponent("view.jpg").path]
        process.standardOutput = try FileHandle(forWritingTo: reports)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let warmUp = seconds <= 120 ? 40 : 60
        try await Task.sleep(for: .seconds(warmUp))
        let first = try #require(try await Self.settledResources(of: process.processIdentifier))
        try await Task.sleep(for: .seconds(max(1, seconds - warmUp - 3)))
        let last = try #require(try await Self.settledResources(of: process.processIdentifier))
        process.waitUntilExit()
        let lines = try String(contentsOf: reports, encoding: .utf8).split(separator: "\n")
        print("soak \(seconds) s: descriptors \(first.descriptors) -> \(last.descriptors), "
              + "RSS \(Int(first.residentMB)) MB -> \(Int(last.residentMB)) MB; last report \(lines.last ?? "none")")
        #expect(process.terminationStatus == 0)
        #expect(lines.count == seconds)
        #expect(last.descriptors == first.descriptors)
        // Flat: pools are made in the warm-up; 16 MB covers allocator noise, not a leak of
        // frames (one 12 MP frame is 18 MB, one photo's buffers more).
        #expect(last.residentMB <= first.residentMB + 16, "RSS grew \(Int(last.residentMB - first.residentMB)) MB")
    }
}
