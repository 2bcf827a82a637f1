import Logging
import PhotoCaptureCore
import Synchronization
import V4L2

/// Camera controls set for a while — one shot — and put back afterwards, like the exposure
/// controls of a bracket: made by ``CaptureDevice/setControls(_:)``.
///
/// ``restore()`` sets every changed control back to its value before the change, latest change
/// first (so a manual value goes back before its automatic mode does). It may be called more
/// than once and from any thread, e.g. a signal handler: only the first call writes.
public final class ControlChanges: Sendable {
    /// The controls as the driver left them after the change (drivers clamp).
    public let applied: [CameraControl]
    private let device: V4L2Device
    /// Changed controls and their earlier values, in change order; emptied by a restore.
    private let saved: Mutex<[(id: UInt32, key: String, value: Int64)]>
    private let logger: Logger

    fileprivate init(applied: [CameraControl], device: V4L2Device, saved: [(id: UInt32, key: String, value: Int64)],
                     logger: Logger) {
        (self.applied, self.device, self.logger) = (applied, device, logger)
        self.saved = Mutex(saved)
    }

    /// Puts the controls back; throws
    /// ``PhotoCaptureError/Code/controlsNotRestored(device:controls:error:)`` naming those the
    /// driver refused (the others are restored all the same).
    public func restore() throws(PhotoCaptureError) {
        let pending = saved.withLock { saved in
            defer { saved = [] }
            return saved
        }
        var failed: [String] = []
        var firstError: V4L2Error?
        for (id, key, value) in pending.reversed() {
            do {
                let kept = try device.setValue(value, of: id)
                logger.info("control \(key) restored", metadata: ["device": "\(device.path)", "value": "\(kept)"])
            } catch {
                failed.append(key)
                firstError = firstError ?? error
            }
        }
        if let firstError {
            throw PhotoCaptureError(.controlsNotRestored(device: device.path, controls: failed.reversed(), error: DeviceError(firstError)))
        }
    }
}

extension CaptureDevice {
    /// Sets each control of `assignments` in order (names and values as
    /// ``setControl(_:to:)`` takes them) and returns what to call to put them back.
    ///
    /// When one is refused, those already set are put back before the error is thrown.
    public func setControls(_ assignments: [(key: String, value: String)]) throws(PhotoCaptureError) -> ControlChanges {
        // The changes are restored through the node itself: only V4L2 cameras have controls.
        guard let device = (source.cameraControls as? V4L2CameraControls)?.device else { throw PhotoCaptureError(.invalidControl("\(localizedName) has no controls")) }
        var saved: [(id: UInt32, key: String, value: Int64)] = []
        var applied: [CameraControl] = []
        for (key, value) in assignments {
            do {
                let before = try controls().first { $0.key == key.lowercased() }
                let after = try setControl(key, to: value)
                // Buttons have no value to restore.
                if let before, let earlier = before.value, before.controlKind != .button {
                    saved.append((before.id, before.key, earlier))
                }
                applied.append(after)
                source.logger.info("control \(after.key) set", metadata: [
                    "device": "\(device.path)", "requested": "\(value)", "value": "\(after.value.map { "\($0)" } ?? "-")",
                    "was": "\(before?.value.map { "\($0)" } ?? "-")"])
            } catch {
                source.logger.warning("control \(key) refused: \(error)")
                try? ControlChanges(applied: [], device: device, saved: saved, logger: source.logger).restore()
                throw error
            }
        }
        return ControlChanges(applied: applied, device: device, saved: saved, logger: source.logger)
    }
}
