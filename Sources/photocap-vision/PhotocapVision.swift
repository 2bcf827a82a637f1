import ArgumentParser
import PhotocapCommands

/// `photocap-vision`: photocap with OpenCV's face detection linked in, for the commands that
/// need it (`watch`, `shoot --smart-framing`); `photocap` hands those over to it.
@main
enum PhotocapVision {
    static func main() async {
        VisionSupport.installed = .openCV
        // What AsyncParsableCommand's own entry point does, after the line above.
        do {
            var command = try PhotocapCommand.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            PhotocapCommand.exit(withError: error)
        }
    }
}
