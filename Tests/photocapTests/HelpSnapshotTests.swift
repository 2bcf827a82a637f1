import Foundation
import Testing
import TestSupport

/// `photocap COMMAND --help` against the snapshots in `HelpSnapshots/`: a changed option, group or
/// text shows up in review. `PHOTOCAP_RECORD_HELP=1 swift test --filter HelpSnapshotTests`
/// rewrites the snapshots (and fails, saying so, so a recording never passes silently).
@Suite struct HelpSnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HelpSnapshots")
    static let isRecording = ProcessInfo.processInfo.environment["PHOTOCAP_RECORD_HELP"] == "1"

    /// The subcommands `photocap --help` lists.
    static func subcommands() throws -> [String] {
        let help = try ExternalTool.run(TestPaths.photocap, ["--help"]).text
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        // A command's line starts two spaces in; wrapped abstracts start deeper.
        return help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { $0 != "help" }
    }

    @Test func everySubcommandHasASnapshot() throws {
        let commands = try Self.subcommands()
        #expect(commands.contains("shoot") && commands.contains("develop"), "subcommands: \(commands)")
        for command in ["photocap"] + commands {
            try check(command)
        }
    }

    /// The three compensation modes are one flag: two of them together are refused.
    @Test func compensationModesExcludeEachOther() throws {
        for command in [["shoot"], ["develop", "x.dng"]] {
            let run = try ExternalTool.run(TestPaths.photocap, command + ["--upright", "--no-compensation"])
            #expect(run.status == 64)
            #expect(run.stderr.contains("'--no-compensation'") && run.stderr.contains("'--upright'"), "\(run.stderr)")
        }
    }

    private func check(_ command: String) throws {
        let arguments = command == "photocap" ? ["--help"] : [command, "--help"]
        let run = try ExternalTool.run(TestPaths.photocap, arguments, environment: ["COLUMNS": "100", "PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(command) --help: \(run.stderr)")
        let snapshot = Self.folder.appendingPathComponent("\(command).txt")
        if Self.isRecording {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try run.stdout.write(to: snapshot)
            Issue.record("recorded \(snapshot.lastPathComponent); run again without PHOTOCAP_RECORD_HELP to compare")
            return
        }
        guard let expected = try? String(contentsOf: snapshot, encoding: .utf8) else {
            Issue.record("no help snapshot for '\(command)': record one with PHOTOCAP_RECORD_HELP=1")
            return
        }
        let actual = String(decoding: run.stdout, as: UTF8.self)
        #expect(actual == expected, "photocap \(arguments.joined(separator: " ")) differs from HelpSnapshots/\(command).txt")
    }
}
