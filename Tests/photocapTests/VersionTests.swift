import Foundation
import PhotoCapture
import Testing
import TestSupport

/// The version is written once (`PhotocapVersion.current`): the changelog's newest release
/// names it, the CLI prints it, and no other source file spells it.
@Suite struct VersionTests {
    /// The versions of CHANGELOG.md's release headings (`## [x.y.z] - date`), newest first;
    /// `## [Unreleased]` is not a release.
    static func releasedVersions() throws -> [String] {
        let changelog = try String(contentsOf: TestPaths.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        return changelog.split(separator: "\n").compactMap { line in
            guard let match = line.wholeMatch(of: /## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}/) else { return nil }
            return String(match.1)
        }
    }

    @Test func theChangelogsNewestReleaseIsTheVersion() throws {
        let released = try Self.releasedVersions()
        #expect(released.first == PhotocapVersion.current, "CHANGELOG.md's releases: \(released)")
        #expect(Set(released).count == released.count, "a release listed twice: \(released)")
    }

    @Test func theVersionIsSemantic() {
        #expect(PhotocapVersion.current.wholeMatch(of: /(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)/) != nil)
    }

    @Test func theCommandPrintsTheVersion() throws {
        for executable in [TestPaths.photocap, TestPaths.photocapVision] {
            let run = try ExternalTool.run(executable, ["--version"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.text == PhotocapVersion.current + "\n", "\(executable): \(run.text)")
        }
    }

    /// A second copy of the version would drift: no Swift source but the constant's own file
    /// spells it as a string.
    @Test func noOtherSourceSpellsTheVersion() throws {
        let sources = TestPaths.repository.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var spelled: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" && file.lastPathComponent != "PhotocapVersion.swift" {
            if try String(contentsOf: file, encoding: .utf8).contains("\"\(PhotocapVersion.current)\"") {
                spelled.append(file.path)
            }
        }
        #expect(spelled == [])
    }
}
