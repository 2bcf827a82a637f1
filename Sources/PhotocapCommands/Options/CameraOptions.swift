import ArgumentParser
import PhotoCapture

/// The camera and how its frames are taken: shared by `shoot` and `serve`, so the server opens
/// its camera with the options, the checks and the words of `photocap shoot`.
package struct CameraOptions: ParsableArguments {
    @Option(help: "Camera: a device path, a libcamera camera id (as 'photocap devices' lists it), or 'synthetic' for the built-in synthetic camera. Default: the first camera; the synthetic one only on a machine without any.")
    var device: String?

    @Option(help: "Video input of --device to select first (VIDIOC_S_INPUT), e.g. a capture card's HDMI input.")
    var input: Int?

    @Option(help: "Frames to discard after the camera starts, so auto exposure settles on a cold start.")
    var skip: Int = 0

    @Option(help: "Largest frame size to capture, WIDTHxHEIGHT (sensor orientation). Default: the largest.")
    var size: PixelSize?

    @Option(name: .customLong("pixel-format"), help: "Camera pixel format to capture in (YUYV, NV12, RGB3, ...); for RAW photos a Bayer format (RGGB, RG10, BA12, ...). Default: the device's choice.")
    var pixelFormat: FramePixelFormat?

    @Option(name: .customLong("sensor-rotation"), help: "Sensor mounting, counter-clockwise degrees (V4L2_CID_CAMERA_SENSOR_ROTATION). Overrides the device; on the synthetic camera it sets how the simulated sensor is mounted.",
            transform: { try QuarterTurn(parsing: $0, for: "--sensor-rotation") })
    var sensorRotation: QuarterTurn?

    @Flag(help: "The sensor delivers mirrored images (front camera). Overrides the device like --sensor-rotation.")
    var mirror = false

    @Option(help: "Device rotation: clockwise degrees that make the compensated image upright (0, 90, 180, 270), or 'auto' for the accelerometer's (iio-sensor-proxy). Default: 0.",
            transform: { try DeviceRotation(parsing: $0) })
    var rotation: DeviceRotation = .fixed(.zero)

    @OptionGroup var frameFile: FrameFileOptions

    @Option(name: .customLong("frame-timeout"),
            help: "Milliseconds to wait for a frame before the request fails (default: ten frame intervals, at least 5000, of a real camera; no limit for a synthetic or file camera).")
    var frameTimeout: Int?

    /// The default camera (ArgumentParser fills in the options).
    package init() {}

    /// The device rotation as given: degrees, or `auto`.
    package var rotationDescription: String { rotation.description }

    /// `--frame-timeout` as a duration; nil for the output's default.
    var frameTimeoutDuration: Duration? { frameTimeout.map { .milliseconds($0) } }

    /// `--sensor-rotation` (with `--mirror`): the mounting that overrides the device's; nil
    /// without it.
    var mountingOverride: SensorMounting? { sensorRotation.map { SensorMounting(rotation: $0.degrees, isMirrored: mirror) } }

    /// The mounting of a camera that reports none (synthetic, frame file): the flags', else
    /// upright.
    var flagMounting: SensorMounting { mountingOverride ?? SensorMounting(rotation: 0, isMirrored: mirror) }

    package func validate() throws {
        if let frameTimeout, frameTimeout < 1 { throw ValidationError("--frame-timeout must be at least 1 ms, got \(frameTimeout)") }
        if skip < 0 || skip > 1000 { throw ValidationError("--skip must be from 0 to 1000, got \(skip)") }
        if input != nil && (device == nil || device == "synthetic" || frameFile.isGiven) {
            throw ValidationError("--input selects an input of a V4L2 --device")
        }
        try frameFile.validate(device: device)
    }
}
