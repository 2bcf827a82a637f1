import ArgumentParser
import PhotoCapture

/// `photocap watch`: runs the live session and reports on it once a second.
package struct WatchCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Run the camera's live session and report once a second: frame rate, frames dropped per consumer, scene status, faces.",
        discussion: """
            Ctrl-C stops the camera cleanly (exit status 130); the preview file, if any, is always \
            a whole JPEG (written to a temporary file and renamed).

            --faces and --smart-framing run OpenCV's face detector on a grey copy of the stream \
            (640x480 for YuNet, 320x240 for the Haar cascade), on their own queues: frames arriving while it is busy are skipped for the \
            analysis, never for the stream or the preview. Faces are in metadata coordinates: \
            normalised to the upright picture, origin top-left.

            Examples:
              photocap watch --device synthetic --duration 5
              photocap watch --device /dev/video0 --json --preview-file view.jpg
              photocap watch --faces --smart-framing --preview-file view.jpg --overlay
              photocap watch --auto-framing --json     (Center Stage: the camera follows the recommendations)
              photocap watch --frame-file people.rgb --frame-format rgb24 --frame-size 640x480 --faces --json
              photocap watch --frame-file clip.y4m --faces --json     (a recorded clip; ends at its last frame)
            """)

    @Option(help: "Camera: a device path, a libcamera camera id (as 'photocap devices' lists it), or 'synthetic' for the built-in synthetic camera. Default: the first camera; the synthetic one only on a machine without any.")
    package var device: String?

    @OptionGroup package var frameFile: FrameFileOptions

    @Option(help: "Stop after this many seconds. Default: until Ctrl-C.")
    package var duration: Int?

    @Option(name: .customLong("preview-file"), help: "Keep an upright JPEG preview of the stream at this path, refreshed once a second.")
    package var previewFile: String?

    @Option(name: .customLong("preview-size"), help: "Largest preview size, WIDTHxHEIGHT.")
    package var previewSize: PixelSize = PixelSize(width: 640, height: 480)

    @Flag(help: "Track faces and report them each second: ID and bounds (with --json also the analysed frame's timestamp).")
    package var faces = false

    @Flag(name: .customLong("smart-framing"), help: "Run the smart framing monitor (every supported framing) and print each new recommended framing when it comes.")
    package var smartFraming = false

    @Flag(name: .customLong("auto-framing"), help: "Apply each smart framing recommendation to the camera as it comes, easing zoom changes, and print each framing applied (its time on the frames' clock, ratio, zoom and crop).")
    package var autoFraming = false

    @Flag(help: "Draw the tracked faces with their IDs (green) and the recommended framing (magenta) onto the --preview-file picture.")
    package var overlay = false

    @Flag(help: "Print one JSON line per second, and one per new recommendation.")
    package var json = false

    @OptionGroup var pixelBudget: PixelBudgetOptions

    package func validate() throws {
        if let duration, duration < 1 { throw ValidationError("--duration must be at least 1 second, got \(duration)") }
        if previewSize.width < 16 || previewSize.height < 16 { throw ValidationError("--preview-size must be at least 16x16") }
        try frameFile.validate(device: device)
        if overlay, previewFile == nil { throw ValidationError("--overlay draws onto the preview picture: give --preview-file PATH too") }
        if overlay, !faces, !smartFraming, !autoFraming {
            throw ValidationError("--overlay draws what --faces and --smart-framing see: give one or both")
        }
    }

    package func run() async throws {
        pixelBudget.limitMemory(.capture)
        // The live session and its report need OpenCV only with --faces or --smart-framing, but
        // a watch runs for seconds to hours: it always runs in photocap-vision.
        do {
            try await VisionSupport.implementation(for: "watch").watch(self)
        } catch let error as PhotoCaptureError {
            // Said as shoot says it (ArgumentParser's "Error:" printed the text raw): one line,
            // the text from files (a clip's header) escaped.
            throw fail(error.description)
        } catch let error as ImageFileError {
            throw fail(error.description)
        }
    }

    /// A watch with the defaults (ArgumentParser fills in the options).
    package init() {}
}
