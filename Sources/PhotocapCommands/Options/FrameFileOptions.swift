import ArgumentParser
import PhotoCapture

/// `--frame-file` with its format and size: a camera that replays one raw frame, for the commands
/// that run a camera (`shoot`, `watch`).
package struct FrameFileOptions: ParsableArguments {
    @Option(name: .customLong("frame-file"), help: "Replay a raw frame from this file instead of using a camera.")
    var frameFile: String?

    @Option(name: .customLong("frame-format"), help: "Pixel format of --frame-file: yuyv, nv12, i420, rgb24, ...")
    var frameFormat: FramePixelFormat?

    @Option(name: .customLong("frame-size"), help: "Size of --frame-file, WIDTHxHEIGHT.")
    var frameSize: PixelSize?

    /// Whether a frame file replaces the camera.
    var isGiven: Bool { frameFile != nil }

    /// The three go together, and a frame file is the camera: no `--device` beside it.
    func validate(device: String?) throws {
        if frameFile != nil {
            guard frameFormat != nil, frameSize != nil else {
                throw ValidationError("--frame-file needs --frame-format and --frame-size")
            }
            if device != nil { throw ValidationError("--frame-file and --device exclude each other") }
        } else if frameFormat != nil || frameSize != nil {
            throw ValidationError("--frame-format and --frame-size go with --frame-file")
        }
    }

    /// The frame-file camera, or nil without `--frame-file`.
    package func camera(mounting: SensorMounting, framesPerSecond: Int) throws(PhotoCaptureError) -> CaptureDevice? {
        guard let frameFile, let frameFormat, let frameSize else { return nil }
        return try CaptureDevice.frameFile(path: frameFile, format: frameFormat, size: frameSize,
                                           mounting: mounting, framesPerSecond: framesPerSecond)
    }

    /// No frame file (ArgumentParser fills in the options).
    package init() {}
}
