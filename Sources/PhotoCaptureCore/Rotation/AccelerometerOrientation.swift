/// Which edge of the device's screen points up, as iio-sensor-proxy reports it
/// (`AccelerometerOrientation` of `net.hadess.SensorProxy`).
///
/// iio-sensor-proxy names the edge of the screen that is up, relative to the screen's natural
/// orientation: `left-up` means the screen's left edge points up, so the device has been turned
/// a quarter **clockwise** (seen from the screen side) from its natural orientation. GNOME's
/// Mutter reads it the same way: it answers `left-up` with the monitor transform 90, a quarter
/// turn counter-clockwise of the picture, which undoes the device's clockwise quarter turn.
public enum AccelerometerOrientation: String, Sendable, CaseIterable {
    /// The device is held in its natural orientation.
    case normal
    /// The screen's left edge points up: the device is turned 90° clockwise.
    case leftUp = "left-up"
    /// The device is upside down: turned 180°.
    case bottomUp = "bottom-up"
    /// The screen's right edge points up: the device is turned 90° counter-clockwise (270°
    /// clockwise).
    case rightUp = "right-up"

    /// How far the device is turned from its natural orientation: clockwise degrees, seen from
    /// the screen side (0, 90, 180 or 270).
    public var deviceRotationAngle: Int {
        switch self {
        case .normal: 0
        case .leftUp: 90
        case .bottomUp: 180
        case .rightUp: 270
        }
    }
}

extension AccelerometerOrientation: CustomStringConvertible {
    /// iio-sensor-proxy's name (`left-up`), the one its documentation, `monitor-sensor` and
    /// GNOME print, rather than the case's Swift name.
    public var description: String { rawValue }
}
