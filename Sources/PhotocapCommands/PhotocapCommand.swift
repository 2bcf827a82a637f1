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
        subcommands: [ShootCommand.self, WatchCommand.self, DevelopCommand.self, DevicesCommand.self, ControlsCommand.self, InfoCommand.self, OrientCommand.self, CompareCommand.self],
        defaultSubcommand: nil
    )

    /// The root command: its subcommands do the work.
    package init() {}
}
