import ArgumentParser
import PhotoCapture

/// `--frame-file` with its format and size: a camera that replays one raw frame, or plays a
/// recorded clip (a `.y4m` file, whose header gives its size and rate), for the commands that
/// run a camera (`shoot`, `watch`).
package struct FrameFileOptions: ParsableArguments {
    @Option(name: .customLong("frame-file"), help: "Replay a raw frame from this file, or play a .y4m clip, instead of using a camera.")
    var frameFile: String?

    @Option(name: .customLong("frame-format"), help: "Pixel format of --frame-file: yuyv, nv12, i420, rgb24, ...")
    var frameFormat: FramePixelFormat?

    @Option(name: .customLong("frame-size"), help: "Size of --frame-file, WIDTHxHEIGHT.")
    var frameSize: PixelSize?

    @Flag(name: .customLong("loop"), help: "Play a .y4m --frame-file again from its start instead of ending at its last frame.")
    var loop = false

    /// Whether a frame file replaces the camera.
    var isGiven: Bool { frameFile != nil }

    /// Whether the frame file is a clip (YUV4MPEG2), named `.y4m`.
    package var isClip: Bool { frameFile?.lowercased().hasSuffix(".y4m") ?? false }

    /// The three go together (a clip's header says the format and size), and a frame file is the
    /// camera: no `--device` beside it.
    func validate(device: String?) throws {
        if loop && !isClip { throw ValidationError("--loop goes with a .y4m --frame-file") }
        if isClip {
            if frameFormat != nil || frameSize != nil {
                throw ValidationError("a .y4m --frame-file gives its own format and size: no --frame-format or --frame-size")
            }
            if device != nil { throw ValidationError("--frame-file and --device exclude each other") }
        } else if frameFile != nil {
            guard frameFormat != nil, frameSize != nil else {
                throw ValidationError("--frame-file needs --frame-format and --frame-size")
            }
            if device != nil { throw ValidationError("--frame-file and --device exclude each other") }
        } else if frameFormat != nil || frameSize != nil {
            throw ValidationError("--frame-format and --frame-size go with --frame-file")
        }
    }

    /// The frame-file camera, or nil without `--frame-file`; a clip plays at its own rate, not
    /// `framesPerSecond`.
    package func camera(mounting: SensorMounting, framesPerSecond: Int) throws(PhotoCaptureError) -> CaptureDevice? {
        if isClip, let frameFile { return try CaptureDevice.clip(path: frameFile, mounting: mounting, loops: loop) }
        guard let frameFile, let frameFormat, let frameSize else { return nil }
        return try CaptureDevice.frameFile(path: frameFile, format: frameFormat, size: frameSize,
                                           mounting: mounting, framesPerSecond: framesPerSecond)
    }

    /// No frame file (ArgumentParser fills in the options).
    package init() {}
}
