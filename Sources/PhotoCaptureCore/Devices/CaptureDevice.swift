import Imaging

/// A camera: where frames come from, what it can deliver and how its sensor is mounted.
///
/// Modelled on `AVCaptureDevice`. ``discoverDevices()`` lists the cameras of this machine; the
/// built-in ``synthetic(_:)`` camera and the
/// ``frameFile(path:format:size:mounting:framesPerSecond:)`` camera work on machines without one.
public final class CaptureDevice: Sendable, CustomStringConvertible {
    /// What kind of camera this is.
    public enum Kind: String, Sendable {
        /// The built-in synthetic camera.
        case synthetic
        /// A raw frame replayed from a file.
        case frameFile
        /// A V4L2 camera (`/dev/videoN`).
        case v4l2
        /// A libcamera camera (a media-controller pipeline: a Raspberry Pi camera module, vimc).
        case libcamera
    }

    /// Where a camera faces, as V4L2_CID_CAMERA_ORIENTATION reports it (``position`` says it
    /// as Apple does).
    public enum Location: String, Sendable {
        /// Towards the user; photos are mirrored like a mirror.
        case front
        /// Away from the user.
        case back
        /// A separate camera.
        case external
    }

    /// A pixel format and the frame sizes the device delivers in it.
    public struct Format: Sendable, Equatable {
        /// The frame layout.
        public let pixelFormat: FramePixelFormat
        /// The sizes offered.
        public let sizes: FrameSizes

        /// `pixelFormat` in `sizes`.
        package init(pixelFormat: FramePixelFormat, sizes: FrameSizes) {
            (self.pixelFormat, self.sizes) = (pixelFormat, sizes)
        }
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

    /// A stable identifier: `synthetic`, `file:PATH`, the V4L2 node path (`/dev/video0`), or a
    /// libcamera camera's id (`platform/vimc.0 Sensor B`).
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
    /// Which way the camera faces, when its backend reports it (``position`` says it as Apple does).
    package let location: Location?
    /// The largest rectangle the camera's driver can crop, nil when it cannot: the hardware crop
    /// of ``PhotoFraming`` is offered only when it is there.
    package let cropBounds: PixelRect?
    /// What the backend reported about the camera in its own terms (``V4L2Details`` for a V4L2
    /// camera), which the backend's module presents; nil for the cameras the core makes.
    package let backendDetails: (any Sendable)?
    /// What the camera's RAW samples mean, written into its DNGs.
    public let rawCalibration: RawCalibration
    /// The backend, kept streaming and fanned out by the live stream.
    package let source: LiveFrameSource
    /// The dynamic aspect ratio and zoom, shared with every value wrapping this camera.
    let framing: FramingControl

    /// A camera whose frames come from `source`; a backend's module makes its cameras with this.
    package init(uniqueID: String, localizedName: String, kind: Kind, formats: [Format], sensorMounting: SensorMounting,
                 hasFlash: Bool = false, location: Location? = nil, cropBounds: PixelRect? = nil,
                 backendDetails: (any Sendable)? = nil, rawCalibration: RawCalibration = .uncalibrated,
                 source: any FrameSource, framing: FramingControl = FramingControl()) {
        self.uniqueID = uniqueID
        self.localizedName = localizedName
        self.kind = kind
        self.formats = formats
        self.sensorMounting = sensorMounting
        self.hasFlash = hasFlash
        self.location = location
        self.cropBounds = cropBounds
        self.backendDetails = backendDetails
        self.rawCalibration = rawCalibration
        self.source = LiveFrameSource.wrapping(source)
        self.framing = framing
    }

    /// The same camera, with the sensor mounting given by the app (a device profile or a
    /// command-line override) instead of what the device reports.
    public func overridingSensorMounting(_ mounting: SensorMounting) -> CaptureDevice {
        replacing(sensorMounting: mounting)
    }

    /// The format for `pixelFormat`, if offered.
    public func format(for pixelFormat: FramePixelFormat) -> Format? {
        formats.first { $0.pixelFormat == pixelFormat }
    }

    /// The format a still is captured in when the request names none: the one offering the
    /// largest size, preferring formats that convert cheaply (4:2:0 and 4:2:2 Y'CbCr, then RGB,
    /// then MJPEG, greyscale and Bayer) among equals.
    public var defaultStillFormat: Format? { defaultFormat(fitting: nil) }

    /// Like ``defaultStillFormat`` but comparing the largest size each format offers inside `box`.
    func defaultFormat(fitting box: PixelSize?) -> Format? { Self.defaultFormat(among: formats, fitting: box) }

    package static func defaultFormat(among formats: [Format], fitting box: PixelSize?) -> Format? {
        func size(_ format: Format) -> Int { (box.map { format.sizes.nearest(fitting: $0) } ?? format.sizes.largest).area }
        return formats.enumerated().max { a, b in
            let (sizeA, sizeB) = (size(a.element), size(b.element))
            if sizeA != sizeB { return sizeA < sizeB }
            let (rankA, rankB) = (a.element.pixelFormat.stillPreference, b.element.pixelFormat.stillPreference)
            if rankA != rankB { return rankA > rankB }
            return a.offset > b.offset
        }?.element
    }

    /// `NAME (ID)`.
    public var description: String { "\(localizedName) (\(uniqueID))" }
}
