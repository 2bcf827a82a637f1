import Codecs

/// The exposure a bracket member's photo was taken with, as read back from the camera after
/// setting it (drivers clamp and round): what the photo's EXIF states.
public struct AppliedExposure: Sendable, Equatable {
    /// The bias in EV: the bias control's value, or for a scaled member the applied time or gain
    /// relative to the metered one; nil for manual members.
    public let exposureTargetBias: Double?
    /// The exposure time in seconds, when the camera states it.
    public let exposureDuration: Double?
    /// The ISO (on V4L2 cameras the gain control's value), when the camera states it.
    public let iso: Double?
    /// The raw control values read back, in the order they were set (e.g. `gain_automatic` 0,
    /// `gain` 120).
    public let controls: [ControlValue]
    /// Frames skipped after the change until the one whose exposure started after it took
    /// effect (``CaptureDevice/framesToSettle`` plus drops); for members on consecutive frames,
    /// the frames between the bracket's schedule and this member's frame.
    public let framesSkippedToSettle: Int

    /// A control and the value the driver reported.
    public struct ControlValue: Sendable, Equatable {
        /// The control's name as `photocap controls` spells it.
        public let key: String
        /// The value read back.
        public let value: Int64

        /// `key` read back as `value`.
        package init(key: String, value: Int64) {
            (self.key, self.value) = (key, value)
        }
    }
}

/// Exposure controls as read from the camera.
package struct ExposureReading: Sendable, Equatable {
    package var bias: Double?
    package var duration: Double?
    package var iso: Double?
    package var controls: [AppliedExposure.ControlValue] = []

    /// A reading of the given values.
    package init(bias: Double? = nil, duration: Double? = nil, iso: Double? = nil, controls: [AppliedExposure.ControlValue] = []) {
        (self.bias, self.duration, self.iso, self.controls) = (bias, duration, iso, controls)
    }
}

extension EXIFMetadata {
    /// ExposureTime, ISOSpeedRatings and ExposureBiasValue as the camera applied them.
    mutating func record(_ exposure: AppliedExposure) {
        exposureTime = exposure.exposureDuration
        isoSpeed = exposure.iso.map { Int($0.rounded()) }
        exposureBias = exposure.exposureTargetBias
    }
}
