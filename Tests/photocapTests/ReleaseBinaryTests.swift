import Foundation
import Testing
import TestSupport

/// CI runs the end-to-end tests against the binary people run, the release build: a debug build
/// hid a crash that every release `shoot --format dng` hit. `.ci/test` sets `PHOTOCAP_BINARIES`
/// to `.build/release`; without it (a developer's `swift test`) the debug binaries run.
@Suite struct ReleaseBinaryTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CI"] == "true", "CI only"))
    func continuousIntegrationRunsTheReleaseBinaries() throws {
        #expect(TestPaths.binariesAreRelease, "the end-to-end tests run \(TestPaths.photocap)")
        for executable in [TestPaths.photocap, TestPaths.photocapVision] {
            #expect(FileManager.default.isExecutableFile(atPath: executable), "\(executable)")
        }
    }
}
