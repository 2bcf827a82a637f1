import Imaging

/// A camera: where frames come from, what it can deliver and how its sensor is mounted.
///
/// Modelled on `AVCaptureDevice`. ``discoverDevices()`` lists the cameras of this machine; the
/// built-in ``synthetic(_:)`` camera and the ``frameFile(path:format:size:mounting:)`` camera
/// work on machines without one.
public final class CaptureDevice: Sendable, CustomStringConvertible {
    /// What kind of camera this is.
    public enum Kind: String, Sendable {
        /// The built-in synthetic camera.
        case synthetic
        /// A raw frame replayed from a file.
        case frameFile
    }

    /// A pixel format and the frame sizes the device delivers in it.
    public struct Format: Sendable, Equatable {
        /// The frame layout.
        public let pixelFormat: FramePixelFormat
        /// The sizes offered.
        public let sizes: FrameSizes
    }

    /// Frame sizes a format offers.
    public enum FrameSizes: Sendable, Equatable, CustomStringConvertible {
        /// A list of sizes.
        case discrete([PixelSize])
        /// Any size from `minimum` to `maximum` in `step` increments.
        case stepwise(minimum: PixelSize, maximum: PixelSize, step: PixelSize)

        /// The largest size offered.
        public var largest: PixelSize {
            switch self {
            case .discrete(let sizes): return sizes.max { $0.area < $1.area } ?? PixelSize(width: 0, height: 0)
            case .stepwise(_, let maximum, _): return maximum
            }
        }

        /// The largest offered size that fits inside `box`, or the smallest offered when none fits.
        public func nearest(fitting box: PixelSize) -> PixelSize {
            switch self {
            case .discrete(let sizes):
                let fitting = sizes.filter { $0.width <= box.width && $0.height <= box.height }
                return fitting.max { $0.area < $1.area } ?? sizes.min { $0.area < $1.area } ?? box
            case .stepwise(let minimum, let maximum, let step):
                func clamp(_ value: Int, _ low: Int, _ high: Int, _ step: Int) -> Int {
                    let bounded = min(max(value, low), high)
                    return low + (bounded - low) / max(step, 1) * max(step, 1)
                }
                return PixelSize(width: clamp(box.width, minimum.width, maximum.width, step.width),
                                 height: clamp(box.height, minimum.height, maximum.height, step.height))
            }
        }

        /// `640x480, 1280x720` or `2x2...4032x3024 step 2x2`.
        public var description: String {
            switch self {
            case .discrete(let sizes): return sizes.map(\.description).joined(separator: ", ")
            case .stepwise(let minimum, let maximum, let step): return "\(minimum)...\(maximum) step \(step)"
            }
        }
    }

    /// A stable identifier: `synthetic`, or `file:PATH`.
    public let uniqueID: String
    /// A name for people.
    public let localizedName: String
    /// The kind of camera.
    public let kind: Kind
    /// Formats in the device's order of preference.
    public let formats: [Format]
    /// The mounting the device reports (or that was set with ``overridingSensorMounting(_:)``).
    public let sensorMounting: SensorMounting
    /// Whether the device has a flash.
    public let hasFlash: Bool
    let source: any FrameSource

    init(uniqueID: String, localizedName: String, kind: Kind, formats: [Format], sensorMounting: SensorMounting,
         hasFlash: Bool = false, source: any FrameSource) {
        self.uniqueID = uniqueID
        self.localizedName = localizedName
        self.kind = kind
        self.formats = formats
        self.sensorMounting = sensorMounting
        self.hasFlash = hasFlash
        self.source = source
    }

    /// The same camera, with the sensor mounting given by the app (a device profile or a
    /// command-line override) instead of what the device reports.
    public func overridingSensorMounting(_ mounting: SensorMounting) -> CaptureDevice {
        CaptureDevice(uniqueID: uniqueID, localizedName: localizedName, kind: kind, formats: formats,
                      sensorMounting: mounting, hasFlash: hasFlash, source: source)
    }

    /// The format for `pixelFormat`, if offered.
    public func format(for pixelFormat: FramePixelFormat) -> Format? {
        formats.first { $0.pixelFormat == pixelFormat }
    }

    /// The cameras of this machine, then the synthetic camera.
    ///
    /// V4L2 cameras are not supported yet (their own layer is being built); until then this
    /// lists the synthetic camera only.
    public static func discoverDevices() -> [CaptureDevice] {
        [synthetic()]
    }

    /// `NAME (ID)`.
    public var description: String { "\(localizedName) (\(uniqueID))" }
}
