extension RotationCoordinator {
    /// Where the coordinator finds iio-sensor-proxy.
    public enum Bus: Sendable, Equatable {
        /// The system bus, where iio-sensor-proxy runs: `DBUS_SYSTEM_BUS_ADDRESS` when set, else
        /// `/run/dbus/system_bus_socket`.
        case system
        /// The bus at a D-Bus address (`unix:path=/run/user/1000/test-bus`), for a proxy run
        /// elsewhere, such as a test's mock.
        case address(String)
    }

    /// How the screen that shows the preview turns, which decides
    /// ``RotationCoordinator/videoRotationAngleForHorizonLevelPreview`` (the part Apple's
    /// coordinator learns from the preview layer).
    public enum PreviewDisplay: Sendable, Equatable {
        /// The compositor turns the screen with the device, from the same accelerometer (GNOME's
        /// Mutter, Phosh and KDE with automatic rotation on): the preview is turned as the
        /// photo is.
        case followsDevice
        /// Rotation is locked: the screen stays as it is for the device held at `orientation`
        /// (`.locked(.normal)`: the device's natural orientation).
        case locked(AccelerometerOrientation)
    }

    /// The angles for one accelerometer orientation.
    public struct Angles: Sendable, Equatable, CustomStringConvertible {
        /// The orientation they are for.
        public let orientation: AccelerometerOrientation
        /// The clockwise degrees that make a photo horizon-level: the value for
        /// ``PhotoSettings/rotationAngle``.
        public let horizonLevelCapture: Int
        /// The clockwise degrees that make the preview horizon-level on the screen: the value
        /// for ``VideoDataOutput/setVideoRotationAngle(_:)``, for frames drawn as delivered.
        public let horizonLevelPreview: Int

        /// The angles for a camera at `location` on a device held at `orientation`, its preview
        /// on a screen that turns as `previewDisplay` says.
        ///
        /// With d the device's ``AccelerometerOrientation/deviceRotationAngle``:
        /// - a back camera, or one that reports no location, turns with the device, so the
        ///   scene shows turned d counter-clockwise in its image: the capture angle is d;
        /// - a front camera looks the other way, so the same turn shows clockwise in its
        ///   (un-mirrored) image: the capture angle is 360 − d;
        /// - an external camera does not turn with the device: 0.
        ///
        /// The sensor's mounting does not enter: the output undoes it (``SensorMounting``), and
        /// the angles, like ``PhotoSettings/rotationAngle``, turn the compensated image.
        ///
        /// The screen turns the preview by d − D in the world, D being how far the screen is
        /// turned (d while it follows the device), so the preview angle is the capture angle
        /// plus D − d.
        public init(orientation: AccelerometerOrientation, location: CaptureDevice.Location?, previewDisplay: PreviewDisplay) {
            let device = orientation.deviceRotationAngle
            let capture = switch location {
            case .front: 360 - device
            case .external: 0
            case .back, nil: device
            }
            let screen = switch previewDisplay {
            case .followsDevice: device
            case .locked(let locked): locked.deviceRotationAngle
            }
            self.orientation = orientation
            horizonLevelCapture = Orientation.normalizedDegrees(capture)
            horizonLevelPreview = Orientation.normalizedDegrees(capture + screen - device)
        }

        /// `left-up: capture 90°, preview 90°`.
        public var description: String {
            "\(orientation.rawValue): capture \(horizonLevelCapture)°, preview \(horizonLevelPreview)°"
        }
    }
}
