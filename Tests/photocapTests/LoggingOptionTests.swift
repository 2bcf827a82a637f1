import Foundation
import Testing
import TestSupport

/// `photocap shoot --verbose / --log-level`: the stream's starts and
/// restarts with their format and size, and the first frame as delivered, are logged on stderr
/// when asked, and nothing is logged otherwise.
@Suite struct LoggingOptionTests {
    func shoot(_ extra: [String]) throws -> String {
        let folder = try TemporaryDirectory("logging-cli")
        let run = try ShootCommandTests.photocap(["shoot", "--device", "synthetic", "--size", "320x240",
                                                  "--output", folder.path("shot.jpg")] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stderr
    }

    @Test func verboseLogsTheStreamAndItsFirstFrame() throws {
        let log = try shoot(["--verbose"])
        let lines = log.split(separator: "\n")
        #expect(lines.contains { $0.contains(" info ") && $0.contains("starting the stream") && $0.contains("format=NV12") }, "\(log)")
        #expect(lines.contains { $0.contains("restarting the stream") && $0.contains("size=320x240") }, "\(log)")
        #expect(lines.contains { $0.contains(" debug ") && $0.contains("first frame") && $0.contains("size=320x240") }, "\(log)")
    }

    @Test func levelsFilterAndSilenceIsTheDefault() throws {
        let info = try shoot(["--log-level", "info"])
        #expect(info.contains("starting the stream") && !info.contains("first frame"), "\(info)")
        #expect(try shoot(["--log-level", "warning"]).isEmpty)
        #expect(try shoot([]).isEmpty)
    }
}
