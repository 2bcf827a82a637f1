import Foundation
import Testing
import TestSupport

/// `photocap shoot --control` on the host (the vivid VM scenario
/// controls.sh checks setting and restoring): malformed values and cameras without controls are
/// refused before anything is written.
@Suite struct ControlOptionTests {
    @Test func malformedOrControllessRequestsWriteNothing() throws {
        let folder = try TemporaryDirectory("control-cli")
        let path = folder.path("shot.jpg")
        for (control, message) in [("brightness", "--control takes NAME=VALUE"), ("=5", "--control takes NAME=VALUE"),
                                   ("brightness=10", "has no controls")] {
            let run = try ShootCommandTests.photocap(["shoot", "--device", "synthetic", "--control", control, "--output", path])
            #expect(run.status != 0, "\(control)")
            #expect(run.stderr.contains(message), "\(control): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(control)")
        }
    }
}
