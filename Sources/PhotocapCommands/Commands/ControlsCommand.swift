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

            A libcamera camera's controls (libcamera's names: ExposureTime, Brightness...) are
            listed with their type, range and default. libcamera applies controls to each
            capture request, not to the camera, so they cannot be set from here.

            Examples:
              photocap controls --device /dev/video0
              photocap controls --device /dev/video0 --set gain=120 --set test_pattern="75% Colorbar"
              photocap controls --device "platform/vimc.0 Sensor B"
            """)

    @Option(help: "The camera: a V4L2 device path (/dev/video0) or a libcamera camera's id.")
    var device: String

    @Option(name: .customLong("set"), help: "NAME=VALUE; repeat to set several, in order.")
    var assignments: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        for assignment in assignments where !assignment.contains("=") {
            throw ValidationError("--set takes NAME=VALUE, got '\(assignment)'")
        }
        // namedCamera's rule: a path is a V4L2 node, anything else a libcamera camera's id.
        if !assignments.isEmpty && !device.hasPrefix("/") {
            throw ValidationError("'\(device)' names a libcamera camera, whose controls are applied to each capture "
                                  + "request, not to the camera: --set has nothing to set (list them without --set)")
        }
    }

    func run() async throws {
        do {
            let camera = try namedCamera(device)
            if camera.kind == .libcamera {
                let controls = try camera.libcameraControls()
                if json {
                    print(try jsonText(controls, pretty: true))
                } else {
                    for control in controls { print(control.line) }
                }
                return
            }
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
