import ArgumentParser
import PhotoCapture

extension ShootCommand {
    /// For `--rotation auto`, a coordinator following the accelerometer for `camera`, once it
    /// has its first reading (it connects in the background, each step bounded); when it has
    /// none, a note says why and the photos are taken at 0. Nil for a fixed angle.
    func rotationCoordinator(for camera: CaptureDevice) async -> RotationCoordinator? {
        guard cameraOptions.rotation == .auto else { return nil }
        let coordinator = RotationCoordinator(device: camera)
        var updates = coordinator.updates().makeAsyncIterator()
        _ = await updates.next()
        if coordinator.videoRotationAngleForHorizonLevelCapture == nil {
            let reason = coordinator.sourceError?.description ?? "the accelerometer's orientation is undefined"
            note("--rotation auto: \(reason); taking photos at rotation 0")
        }
        return coordinator
    }

    /// Sets the rotation angle of `settings` from the accelerometer, now: 0 without a reading.
    func applyRotation(from coordinator: RotationCoordinator?, to settings: inout PhotoSettings) {
        guard let coordinator else { return }
        settings.rotationAngle = coordinator.videoRotationAngleForHorizonLevelCapture ?? 0
    }
}
