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

    // The camera options of `shoot`, passed to it as written so they are checked by the same
    // code, in the same words.
    @Option(help: "Camera: a device path, a libcamera camera id (as 'photocap devices' lists it), or 'synthetic' for the built-in synthetic camera. Default: the first camera; the synthetic one only on a machine without any.")
    var device: String?

    @Option(help: "Video input of --device to select first (VIDIOC_S_INPUT).")
    var input: String?

    @Option(help: "Frames to discard after the camera starts.")
    var skip: String?

    @Option(help: "Largest frame size to capture, WIDTHxHEIGHT (sensor orientation). Default: the largest.")
    var size: String?

    @Option(name: .customLong("pixel-format"), help: "Camera pixel format to capture in (YUYV, NV12, RGB3, ...).")
    var pixelFormat: String?

    @Option(name: .customLong("sensor-rotation"), help: "Sensor mounting, counter-clockwise degrees; on the synthetic camera, how the simulated sensor is mounted.")
    var sensorRotation: String?

    @Flag(help: "The sensor delivers mirrored images (front camera).")
    var mirror = false

    @Option(help: "Device rotation: clockwise degrees that make the compensated image upright (0, 90, 180, 270), or 'auto' for the accelerometer's. Default: 0.")
    var rotation: String?

    @Option(name: .customLong("frame-file"), help: "Replay a raw frame from this file, or play a .y4m clip, instead of using a camera.")
    var frameFile: String?

    @Option(name: .customLong("frame-format"), help: "Pixel format of --frame-file: yuyv, nv12, i420, rgb24, ...")
    var frameFormat: String?

    @Option(name: .customLong("frame-size"), help: "Size of --frame-file, WIDTHxHEIGHT.")
    var frameSize: String?

    @Flag(name: .customLong("loop"), help: "Play a .y4m --frame-file again from its start instead of ending at its last frame.")
    var loop = false

    @Option(name: .customLong("frame-timeout"), help: "Milliseconds to wait for a frame before a photo request fails.")
    var frameTimeout: String?

    /// A server with the defaults (ArgumentParser fills in the options).
    package init() {}

    /// The camera options as `shoot` takes them.
    package var cameraArguments: [String] {
        let valued: [(String, String?)] = [
            ("--device", device), ("--input", input), ("--skip", skip), ("--size", size), ("--pixel-format", pixelFormat),
            ("--sensor-rotation", sensorRotation), ("--rotation", rotation), ("--frame-file", frameFile),
            ("--frame-format", frameFormat), ("--frame-size", frameSize), ("--frame-timeout", frameTimeout),
        ]
        return valued.flatMap { name, value in value.map { [name, $0] } ?? [] } + (mirror ? ["--mirror"] : []) + (loop ? ["--loop"] : [])
    }

    /// `shoot` with the camera options and `request` (a photo's settings, as `shoot`'s options),
    /// checked as `photocap shoot` checks them; a refusal is thrown as `shoot` words it.
    package func shootCommand(adding request: [String] = []) throws(SettingsRefusal) -> ShootCommand {
        do {
            return try ShootCommand.parse(cameraArguments + request)
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
