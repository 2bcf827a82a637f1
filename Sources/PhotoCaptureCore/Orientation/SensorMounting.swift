import Imaging

/// How a camera's sensor is mounted relative to the device's natural upright orientation.
public struct SensorMounting: Hashable, Sendable, CustomStringConvertible {
    /// Counter-clockwise degrees the image must be turned to compensate, with the meaning of
    /// `V4L2_CID_CAMERA_SENSOR_ROTATION`: 0, 90, 180 or 270.
    public var rotation: Int
    /// Whether the sensor delivers a left-right mirrored image (typical of front cameras).
    public var isMirrored: Bool

    /// An upright, unmirrored mounting.
    public static let upright = SensorMounting(rotation: 0, isMirrored: false)

    /// A mounting; `rotation` is normalised to 0..<360 and must be a multiple of 90.
    public init(rotation: Int, isMirrored: Bool = false) {
        precondition(Orientation(clockwiseDegrees: rotation) != nil, "sensor rotation must be a multiple of 90 degrees, got \(rotation)")
        self.rotation = Orientation.normalizedDegrees(rotation)
        self.isMirrored = isMirrored
    }

    /// The transform that undoes the mounting: mirror (if any), then turn `rotation` degrees
    /// counter-clockwise.
    public var compensation: Orientation {
        (isMirrored ? Orientation.upMirrored : .up).followed(by: .clockwise(degrees: -rotation))
    }

    /// The whole correction of a frame from this sensor held at `rotationAngle` (clockwise
    /// degrees, a multiple of 90): the mounting's compensation, then the device's turn. The
    /// orientation rule of the Architecture article; every part that needs the upright picture
    /// (the plan, the crop, metadata coordinates) asks here.
    public func upright(rotationAngle: Int) -> Orientation {
        compensation.followed(by: .clockwise(degrees: rotationAngle))
    }

    /// `rotation 90°, mirrored`.
    public var description: String { "rotation \(rotation)°" + (isMirrored ? ", mirrored" : "") }
}

