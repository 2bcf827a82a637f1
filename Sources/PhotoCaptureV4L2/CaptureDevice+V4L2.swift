import FoundationEssentials
import ImageFiles
import Imaging
import PhotoCaptureCore
import V4L2

extension CaptureDevice {
    /// Opens the V4L2 camera at `path` and reads its formats, sizes, inputs and camera controls.
    ///
    /// The sensor mounting combines what the driver reports: V4L2_CID_CAMERA_SENSOR_ROTATION,
    /// the input's HFLIP/VFLIP status (a flip the driver does not correct) and a front-facing
    /// V4L2_CID_CAMERA_ORIENTATION (mirrored, like a mirror). A media-controller pipeline's
    /// capture node has neither control: they are read from the sensor subdevice the pipeline's
    /// enabled links lead back to (``V4L2Details/sensorSubdevice``).
    ///
    /// - Parameters:
    ///   - path: the device node, e.g. `/dev/video0`.
    ///   - input: the video input to select first (VIDIOC_S_INPUT; the driver keeps it for later
    ///     opens too), e.g. a capture card's HDMI input; nil keeps the current one.
    public static func v4l2(path: String, input: Int? = nil) throws(PhotoCaptureError) -> CaptureDevice {
        do {
            return try makeV4L2Device(path: path, input: input)
        } catch {
            throw PhotoCaptureError(error)
        }
    }

    /// The V4L2 camera at the `file:` URL `url` (`file:///dev/video0`), as
    /// ``v4l2(path:input:)`` opens it.
    public static func v4l2(url: URL, input: Int? = nil) throws(PhotoCaptureError) -> CaptureDevice {
        try v4l2(path: PhotoCaptureError.file(url.filePath), input: input)
    }

    /// The camera at `path` as `driver` answers for it: host tests run the whole stack over the
    /// fake driver of the V4L2Testing target.
    package static func v4l2(path: String, driver: any V4L2Driver) throws(PhotoCaptureError) -> CaptureDevice {
        do {
            return try makeV4L2Device(path: path, driver: driver)
        } catch {
            throw PhotoCaptureError(error)
        }
    }

    static func makeV4L2Device(path: String, input requestedInput: Int? = nil,
                                       driver: any V4L2Driver = SystemV4L2Driver()) throws(V4L2Error) -> CaptureDevice {
        let device = try V4L2Device(path: path, driver: driver)
        let capabilities = try device.capabilities()
        guard capabilities.canCaptureVideo else { throw .notACaptureDevice(device: path) }
        guard capabilities.canStream else { throw .streamingUnsupported(device: path) }
        if let requestedInput { try device.selectInput(requestedInput) }
        // Sizes beyond the crop bounds would be the driver's upscaling, which a still never wants.
        let cropBounds = try device.selection(.cropBounds)

        var formats: [Format] = []
        var unsupported: [String] = []
        for description in try device.formats() {
            guard let pixelFormat = FramePixelFormat(fourCC: description.fourCC),
                  let sizes = try device.frameSizes(for: description.fourCC).map(FrameSizes.init)
                      ?? currentSizeIfFormat(description.fourCC, on: device)
            else {
                unsupported.append(description.fourCC.description)
                continue
            }
            formats.append(Format(pixelFormat: pixelFormat, sizes: cropBounds.map { sizes.limited(to: $0.size) } ?? sizes))
        }

        // A pipeline's node streams only what its pipeline is configured to carry, which is its
        // current format once configured (media-ctl and v4l2-ctl, as libcamera does it): that alone.
        if capabilities.isMediaControllerCentric, let active = try? device.format() {
            formats = formats.filter { $0.pixelFormat.v4l2FourCC == active.fourCC }
                .map { Format(pixelFormat: $0.pixelFormat, sizes: .discrete([active.size])) }
        }

        let controls = try device.controls()
        func control(_ id: UInt32) -> Int64? {
            guard controls.contains(where: { $0.id == id }) else { return nil }
            return try? device.value(of: id)
        }
        let nodeRotation = control(V4L2ControlID.cameraSensorRotation).map(Int.init)
        let nodeLocation = control(V4L2ControlID.cameraOrientation).flatMap(V4L2CameraLocation.init)
        // A pipeline's capture node has no mounting controls: its sensor's subdevice has them.
        // The subdevice is named only when a value of its was taken.
        let sensor = (nodeRotation == nil || nodeLocation == nil ? device.pipelineSensor() : nil).flatMap {
            (nodeRotation == nil && $0.rotation != nil) || (nodeLocation == nil && $0.location != nil) ? $0 : nil
        }
        let rotation = (nodeRotation ?? sensor?.rotation).flatMap { Orientation(clockwiseDegrees: $0) != nil ? $0 : nil }
        let reportedLocation = nodeLocation ?? sensor?.location
        let location: Location? = reportedLocation.map {
            switch $0 {
            case .front: return .front
            case .back: return .back
            case .external: return .external
            }
        }
        let input = try device.currentInput()
        let (hflip, vflip) = (input?.isFlippedHorizontally ?? false, input?.isFlippedVertically ?? false)
        // A vertical flip is a mirror plus a half turn; both flips together are a half turn.
        let mounting = SensorMounting(rotation: (rotation ?? 0) + (vflip ? 180 : 0),
                                      isMirrored: (hflip != vflip) != (location == .front))

        var rates: [Double] = []
        if let still = defaultFormat(among: formats, fitting: nil) {
            rates = (try? device.frameIntervals(for: still.pixelFormat.v4l2FourCC, size: still.sizes.largest))?
                .map(\.framesPerSecond) ?? []
        }
        let details = V4L2Details(
            path: path, driver: capabilities.driver, busInfo: capabilities.busInfo, inputName: input?.name,
            reportedSensorRotation: rotation,
            sensorSubdevice: sensor?.subdevice, sensorName: sensor?.name,
            location: location, isFlippedHorizontally: hflip,
            isFlippedVertically: vflip, unsupportedFormats: unsupported, frameRates: rates, cropBounds: cropBounds,
            isPipelineNode: capabilities.isMediaControllerCentric)
        return CaptureDevice(uniqueID: path, localizedName: capabilities.card, kind: .v4l2, formats: formats,
                             sensorMounting: mounting, location: location, cropBounds: cropBounds, backendDetails: details,
                             source: V4L2FrameSource(device: device))
    }

    /// Drivers that do not enumerate sizes still report the current one.
    private static func currentSizeIfFormat(_ fourCC: FourCC, on device: V4L2Device) -> FrameSizes? {
        guard let active = try? device.format(), active.fourCC == fourCC else { return nil }
        return .discrete([active.size])
    }
}

extension CaptureDevice.FrameSizes {
    init(_ sizes: V4L2FrameSizes) {
        switch sizes {
        case .discrete(let list): self = .discrete(list)
        case .stepwise(let minimum, let maximum, let step): self = .stepwise(minimum: minimum, maximum: maximum, step: step)
        }
    }

    /// The sizes no larger than `box` (a range keeps its minimum and step); unchanged when
    /// none fits, so the device's own limits still apply.
    func limited(to box: PixelSize) -> CaptureDevice.FrameSizes {
        switch self {
        case .discrete(let sizes):
            let fitting = sizes.filter { $0.width <= box.width && $0.height <= box.height }
            return .discrete(fitting.isEmpty ? sizes : fitting)
        case .stepwise(let minimum, let maximum, let step):
            guard minimum.width <= box.width, minimum.height <= box.height else { return self }
            let limit = PixelSize(width: min(maximum.width, box.width), height: min(maximum.height, box.height))
            return .stepwise(minimum: minimum, maximum: nearest(fitting: limit), step: step)
        }
    }
}
