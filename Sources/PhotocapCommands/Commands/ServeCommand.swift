import ArgumentParser
import PhotoCapture

/// `photocap serve`: the camera over HTTP, for a browser (a viewfinder, a shutter, a gallery) and
/// for programs (a JSON API described by an OpenAPI document). It runs in `photocap-serve`,
/// which links SwiftNIO and Hummingbird; `photocap` itself does not (see ``ServeSupport``).
package struct ServeCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the camera to a browser and to programs over HTTP.",
        discussion: """
            The page at / shows the viewfinder, with the faces and the recommended framing drawn over \
            it on request and a switch for auto-framing, a shutter and the photos taken; the API is \
            described at /openapi.json. It listens on 127.0.0.1 unless --listen names another address; then \
            every request needs the token (--token, or one generated and printed once), state-changing \
            ones in the X-Photocap-Token header. Photos are written to --output; one is taken at a \
            time. Ctrl-C or SIGTERM stops the camera after the photo in progress is written.

            Examples:
              photocap serve --output shots/
              photocap serve --listen 0.0.0.0:8443 --output shots/ --device /dev/video0
              photocap serve --output shots/ --frame-file people.y4m --loop
            """)

    @Option(help: ArgumentHelp("Address and port to listen on; a port of 0 picks a free one.", valueName: "address:port"))
    package var listen = "127.0.0.1:8080"

    @Option(help: "Folder the photos are written to (made if missing).")
    package var output: String

    @Option(help: "Token every request must carry (X-Photocap-Token header, or ?token= on a GET). Default: none on a loopback address, else a generated one, printed once.")
    package var token: String?

    @Option(name: .customLong("max-viewers"), help: "Event streams open at once (one for each page open), at most; more get 503.")
    package var maxViewers = 8

    @Option(name: .customLong("max-queued"), help: "Photo requests waiting behind the one being taken, at most; more get 503.")
    package var maxQueued = 8

    @Option(name: .customLong("viewfinder-size"), help: "Largest size of the viewfinder's frames, WIDTHxHEIGHT.")
    package var viewfinderSize = PixelSize(width: 640, height: 480)

    @Option(name: .customLong("viewfinder-rate"), help: "Viewfinder frames per second a page asks for, at most (a slow viewer gets fewer: frames are dropped, not queued).")
    package var viewfinderRate = 10

    // The camera options of `shoot`, given to it as they were parsed, so they are checked by
    // the same code, in the same words.
    @OptionGroup(title: "Camera")
    package var camera: CameraOptions

    /// A server with the defaults (ArgumentParser fills in the options).
    package init() {}

    /// `shoot` with the camera options and `request` (a photo's settings, as `shoot`'s options),
    /// checked as `photocap shoot` checks them; a refusal is thrown as `shoot` words it.
    package func shootCommand(adding request: [String] = []) throws(SettingsRefusal) -> ShootCommand {
        do {
            var shoot = try ShootCommand.parse(request)
            shoot.cameraOptions = camera
            try shoot.validate()
            return shoot
        } catch {
            throw SettingsRefusal(ShootCommand.message(for: error))
        }
    }

    package func validate() throws {
        _ = try ListenAddress(parsing: listen)
        if let token, token.isEmpty || token.utf8.count > 256 || token.contains(where: { $0.isWhitespace }) {
            throw ValidationError("--token must be 1 to 256 characters without spaces")
        }
        if !(1...64).contains(maxViewers) { throw ValidationError("--max-viewers must be from 1 to 64, got \(maxViewers)") }
        if !(0...1000).contains(maxQueued) { throw ValidationError("--max-queued must be from 0 to 1000, got \(maxQueued)") }
        if !(1...60).contains(viewfinderRate) { throw ValidationError("--viewfinder-rate must be from 1 to 60, got \(viewfinderRate)") }
        do {
            _ = try shootCommand()
        } catch {
            throw ValidationError(error.message)
        }
    }

    package func run() async throws {
        try await ServeSupport.implementation()(self)
    }
}
