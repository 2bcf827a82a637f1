import ArgumentParser
import PhotoCapture

/// `photocap`: still photos from Linux cameras with exact orientation.
package struct PhotocapCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "photocap",
        abstract: "Take still photos from V4L2 cameras with exactly right orientation.",
        discussion: """
            Without a camera, `photocap shoot` uses the built-in synthetic camera. Orientation \
            compensation is on by default: the pixels are turned to undo the sensor's mounting \
            and the metadata says how the device was held.
            """,
        version: PhotocapVersion.current,
        subcommands: [ShootCommand.self, WatchCommand.self, DevelopCommand.self, DevicesCommand.self, ControlsCommand.self, InfoCommand.self, OrientCommand.self, CompareCommand.self, ServeCommand.self],
        defaultSubcommand: nil
    )

    /// The root command: its subcommands do the work.
    package init() {}

    /// Parses the process's arguments and runs the command they name, as AsyncParsableCommand's
    /// own entry point does: for the executables beside `photocap` (`photocap-vision`,
    /// `photocap-serve`), which install their implementation first.
    package static func parseAndRun() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
