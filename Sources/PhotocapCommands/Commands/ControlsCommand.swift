import ArgumentParser
import FoundationEssentials
import PhotoCapture

/// `photocap controls`: read and set a camera's controls.
struct ControlsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "controls",
        abstract: "List a camera's controls, or set them.",
        discussion: """
            Names are the driver's, lower case with underscores (as v4l2-ctl spells them).
            Values are numbers, menu labels, or true/false. Each set is read back: drivers clamp.

            Examples:
              photocap controls --device /dev/video0
              photocap controls --device /dev/video0 --set gain=120 --set test_pattern="75% Colorbar"
            """)

    @Option(help: "The camera's device path, e.g. /dev/video0.")
    var device: String

    @Option(name: .customLong("set"), help: "NAME=VALUE; repeat to set several, in order.")
    var assignments: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        for assignment in assignments where !assignment.contains("=") {
            throw ValidationError("--set takes NAME=VALUE, got '\(assignment)'")
        }
    }

    func run() async throws {
        do {
            let camera = try CaptureDevice.v4l2(path: device)
            var shown: [CameraControl] = []
            for assignment in assignments {
                let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                shown.append(try camera.setControl(parts[0], to: parts.count > 1 ? parts[1] : ""))
            }
            if assignments.isEmpty { shown = try camera.controls().filter { $0.controlKind != .controlClass } }
            let entries = shown.map(ControlEntry.init)
            if json {
                print(try jsonText(entries, pretty: true))
            } else {
                for entry in entries { print(entry.line) }
            }
        } catch let error as PhotoCaptureError {
            throw fail(error.description)
        }
    }
}
