import PhotoCapture

/// Converts between the three coordinate systems faces and framings meet:
///
/// - **metadata**: normalised to the upright picture after the current aspect-ratio crop, origin
///   top-left, x right, y down (what ``MetadataFaceObject/bounds`` holds);
/// - **photo pixels**: the same picture as a photo of some size;
/// - **sensor frame**: pixels of the whole frame as the camera delivers it, before any turn.
///
/// The turn between sensor and upright is one `Orientation` (the mount's compensation followed
/// by the device's rotation), so the conversion is written once, in the orientation algebra.
public struct MetadataCoordinates: Sendable, Hashable {
    /// The whole frame as delivered.
    public let frameSize: PixelSize
    /// The part of the frame the picture keeps (the aspect-ratio crop), in frame pixels.
    public let sensorCrop: PixelRect
    /// How the crop is turned to show it upright.
    public let upright: Orientation

    /// The conversion for a frame of `frameSize` cropped to `sensorCrop` and shown after
    /// `upright` (for example `PhotoFraming.sensorCrop` and the mount's compensation
    /// followed by the device rotation).
    public init(frameSize: PixelSize, sensorCrop: PixelRect? = nil, upright: Orientation) {
        self.frameSize = frameSize
        self.sensorCrop = sensorCrop ?? PixelRect(covering: frameSize)
        self.upright = upright
    }

    /// The conversion for a camera mounted as `mounting`, held at `rotationAngle` degrees
    /// clockwise, whose frames of `frameSize` are cropped to `sensorCrop`.
    public init(frameSize: PixelSize, sensorCrop: PixelRect? = nil, mounting: SensorMounting, rotationAngle: Int = 0) {
        self.init(frameSize: frameSize, sensorCrop: sensorCrop,
                  upright: mounting.upright(rotationAngle: rotationAngle))
    }

    /// The size of the upright picture (the crop turned upright), in frame pixels.
    public var uprightSize: PixelSize { upright.apply(to: sensorCrop.size) }

    private var cropInFrame: NormalizedRect { NormalizedRect(sensorCrop, in: frameSize) }

    /// A rectangle of sensor-frame pixels in metadata coordinates (it may reach outside 0...1
    /// when it leaves the crop).
    public func metadataRect(fromSensor rect: PixelRect) -> NormalizedRect {
        upright.apply(toNormalized: NormalizedRect(rect, in: frameSize).relative(to: cropInFrame))
    }

    /// A metadata rectangle as sensor-frame pixels, rounded outwards, clipped to the frame.
    public func sensorRect(fromMetadata rect: NormalizedRect) -> PixelRect {
        upright.inverse.apply(toNormalized: rect).absolute(in: cropInFrame).pixelRect(in: frameSize)
    }

    /// A metadata rectangle as pixels of an upright photo of `photoSize`, rounded outwards,
    /// clipped to the photo.
    public static func photoRect(fromMetadata rect: NormalizedRect, photoSize: PixelSize) -> PixelRect {
        rect.pixelRect(in: photoSize)
    }

    /// Pixels of an upright photo of `photoSize` in metadata coordinates.
    public static func metadataRect(fromPhoto rect: PixelRect, photoSize: PixelSize) -> NormalizedRect {
        NormalizedRect(rect, in: photoSize)
    }
}
