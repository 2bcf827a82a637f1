import PhotoCapture

// What `photocap serve` takes from `shoot`: the camera it opens and the settings of each photo,
// made by the same code as on the command line.
extension ShootCommand {
    /// The camera the options name (by default the first camera; the synthetic one only when there is none).
    package func openServedCamera() throws(PhotoCaptureError) -> CaptureDevice { try openCamera() }

    /// A photo's settings from the options; `--xmp` (a file on the server) is not used.
    package func servedSettings() -> PhotoSettings { makeSettings(xmp: nil) }

    /// `--raw-plus`'s processed format: a RAW photo and this one from the same frame.
    package var rawPlusFormat: PhotoFormat? { rawPlus }

    /// `--raw-plus` without `--pixel-format`: the camera's best RAW format is chosen.
    package var choosesRawFormat: Bool { rawPlus != nil && cameraOptions.pixelFormat == nil }

    /// How much of the orientation correction goes into the pixels (`--compensation`,
    /// `--no-compensation`, `--upright`).
    package var orientationCompensation: OrientationCompensation { encoding.compensation.orientationCompensation }

    /// `--frame-timeout`, for the output.
    package var frameTimeoutDuration: Duration? { cameraOptions.frameTimeoutDuration }

    /// `--skip`: frames discarded when the camera starts.
    package var framesToSkip: Int { cameraOptions.skip }

    /// Whether `--rotation auto` asks for the accelerometer's rotation.
    package var followsAccelerometer: Bool { cameraOptions.rotation == .auto }

    /// A coordinator following the accelerometer for `camera` with `--rotation auto`; nil for a
    /// fixed rotation.
    package func servedRotationCoordinator(for camera: CaptureDevice) async -> RotationCoordinator? {
        await rotationCoordinator(for: camera)
    }

    /// Sets the rotation of `settings` from `coordinator`, now (nil: the fixed `--rotation`).
    package func applyServedRotation(from coordinator: RotationCoordinator?, to settings: inout PhotoSettings) {
        applyRotation(from: coordinator, to: &settings)
    }
}

/// The report of `photo` as `shoot --json` prints it (one line of JSON), with `name` as its
/// path: what `photocap serve` says about each photo it takes.
package func servedPhotoReport(_ photo: CapturePhoto, name: String, device: String) throws -> String {
    try jsonText(PhotoReport(photo: photo, path: name, previewPath: nil, device: device))
}
