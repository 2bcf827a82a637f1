import Foundation
import Imaging
import PhotocapCommands
import Testing
import TestSupport

/// What README.md claims, read from README.md itself: its tour of the command line parses as
/// photocap parses it (options renamed or removed fail here, not in a reader's shell), the
/// products it names are the package's, and what it says is not there yet is absent.
@Suite struct ReadmeTests {
    static let readme: String = (try? String(contentsOf: TestPaths.repository.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// The lines of the first `sh` block after `heading`.
    static func shellBlock(after heading: String) throws -> [String] {
        let section = try #require(readme.range(of: heading), "README has no \(heading)")
        let rest = readme[section.upperBound...]
        let start = try #require(rest.range(of: "```sh\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return rest[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    }

    @Test func theTourOfTheCommandLineParses() throws {
        let lines = try Self.shellBlock(after: "## A tour of the command line")
        #expect(lines.count >= 10, "\(lines)")
        for line in lines {
            // The comment after `#`; no argument in the tour is quoted or contains a space.
            let command = line.split(separator: "#", maxSplits: 1)[0].split(separator: " ").map(String.init)
            try #require(command.first == "photocap", "\(line)")
            #expect(throws: Never.self, "\(line)") { _ = try PhotocapCommand.parseAsRoot(Array(command.dropFirst())) }
        }
    }

    @Test func theProductsItNamesAreThePackagesLibraries() throws {
        let manifest = try String(contentsOf: TestPaths.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let libraries = Set(manifest.matches(of: /\.library\(\s*name:\s*"([^"]+)"/).map { String($0.output.1) })
        for product in ["PhotoCapture", "PhotoCaptureVision", "PhotoCaptureTesting"] {
            #expect(Self.readme.contains("`\(product)`") || Self.readme.contains("\"\(product)\""), "README does not name \(product)")
            #expect(libraries.contains(product), "README names \(product); the package's libraries are \(libraries.sorted())")
        }
    }

    /// The sentence that lists what is absent, and the absence of each item it lists (14-bit
    /// packed Bayer is also refused by V4L2LayerTests, an app's XMP past one APP1 segment by
    /// XMPCommandTests).
    @Test func whatItSaysIsNotThereIsAbsent() throws {
        let sentence = try #require(Self.readme.range(of: "Not there yet").map { Self.readme[$0.lowerBound...].prefix(while: { $0 != "." }) })
        let flat = sentence.replacingOccurrences(of: "\n", with: " ")
        #expect(flat.contains("14-bit packed Bayer") && flat.contains("extended XMP in JPEG"), "\(flat)")
        let read = Set(FramePixelFormat.allCases.map(\.fourCC))
        #expect(!read.contains("pBEE"), "14-bit packed Bayer (SBGGR14P) is read: \(read.sorted())")
        #expect(read.contains("pRAA") && read.contains("pRCC"), "10- and 12-bit packed Bayer, which README does not list as absent")
    }
}
