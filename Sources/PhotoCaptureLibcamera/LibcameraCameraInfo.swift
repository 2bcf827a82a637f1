import CLibcamera
import Imaging
import PhotoCaptureCore

/// A libcamera camera as listed before it is opened, in Swift terms.
package struct LibcameraCameraInfo: Sendable, Equatable {
    /// One pixel format of a stream and its sizes.
    package struct StreamFormat: Sendable, Equatable {
        /// libcamera's name ("BGR888") and DRM fourcc.
        package let name: String
        package let fourcc: UInt32
        /// Any size from `minimum` to `maximum`, and the discrete sizes listed (often none).
        package let minimum: PixelSize
        package let maximum: PixelSize
        package let sizes: [PixelSize]

        /// Whether `sizes` is libcamera's whole list: the shim keeps at most PC_LC_MAX_SIZES.
        package var listsEverySize: Bool { !sizes.isEmpty && sizes.count < Int(PC_LC_MAX_SIZES) }

        /// The sizes as a device lists them: the discrete ones when libcamera gave a short list
        /// (a pipeline of fixed modes), else the range. For a range, libcamera's list is common
        /// sizes inside it, cut off by the shim and not what the pipeline keeps (vimc turns
        /// 960x640 into 960x636), while the range's maximum is one it keeps (the shim validates
        /// it); other sizes in the range may be adjusted, which the frame source reports.
        package var frameSizes: CaptureDevice.FrameSizes {
            listsEverySize ? .discrete(sizes) : .stepwise(minimum: minimum, maximum: maximum, step: PixelSize(width: 1, height: 1))
        }
    }

    package let id: String
    package let model: String
    package let location: CaptureDevice.Location?
    /// The sensor's mounting in degrees (libcamera's Rotation, V4L2_CID_CAMERA_SENSOR_ROTATION's
    /// meaning); nil when not reported.
    package let rotation: Int?
    package let pixelArray: PixelSize?
    package let stillFormats: [StreamFormat]
    package let rawFormats: [StreamFormat]
    /// PC_LC_CONTROL_* bits.
    package let controls: UInt32

    /// The Swift copy of the shim's listing.
    package init(_ info: pc_lc_camera_info) {
        var info = info
        id = LibcameraResult.text(&info.id)
        model = LibcameraResult.text(&info.model)
        location = Self.location(info.location)
        rotation = info.rotation >= 0 && info.rotation % 90 == 0 ? Int(info.rotation) % 360 : nil
        pixelArray = info.pixel_array.width == 0 ? nil : PixelSize(width: Int(info.pixel_array.width), height: Int(info.pixel_array.height))
        stillFormats = Self.formats(&info.still_formats, count: info.still_format_count)
        rawFormats = Self.formats(&info.raw_formats, count: info.raw_format_count)
        controls = info.controls
    }

    /// The location for libcamera's Location property value (PC_LC_LOCATION_*).
    package static func location(_ value: Int32) -> CaptureDevice.Location? {
        switch value {
        case Int32(PC_LC_LOCATION_FRONT): return .front
        case Int32(PC_LC_LOCATION_BACK): return .back
        case Int32(PC_LC_LOCATION_EXTERNAL): return .external
        default: return nil
        }
    }

    /// The mounting to compensate: the reported rotation, mirrored for a front camera (which
    /// faces the user, as a V4L2 camera whose orientation says front is).
    package var sensorMounting: SensorMounting {
        SensorMounting(rotation: rotation ?? 0, isMirrored: location == .front)
    }

    /// The device formats photocap can read, in libcamera's order, and the names of the others.
    package var deviceFormats: (readable: [CaptureDevice.Format], unsupported: [String]) {
        var readable: [CaptureDevice.Format] = []
        var unsupported: [String] = []
        for format in stillFormats + rawFormats {
            guard let pixelFormat = FramePixelFormat(libcameraName: format.name) else {
                if !unsupported.contains(format.name) { unsupported.append(format.name) }
                continue
            }
            guard !readable.contains(where: { $0.pixelFormat == pixelFormat }) else { continue }
            readable.append(CaptureDevice.Format(pixelFormat: pixelFormat, sizes: format.frameSizes))
        }
        return (readable, unsupported)
    }

    /// The still or raw stream format for `pixelFormat`, and whether it is the raw stream's.
    package func streamFormat(for pixelFormat: FramePixelFormat) -> (format: StreamFormat, isRaw: Bool)? {
        let name = pixelFormat.libcameraName
        if let still = stillFormats.first(where: { $0.name == name }) { return (still, false) }
        if let raw = rawFormats.first(where: { $0.name == name }) { return (raw, true) }
        return nil
    }

    private static func formats<T>(_ tuple: inout T, count: Int32) -> [StreamFormat] {
        withUnsafeBytes(of: &tuple) { bytes in
            let formats = bytes.bindMemory(to: pc_lc_format.self)
            return formats.prefix(max(0, min(Int(count), formats.count))).map { format in
                var format = format
                let listed = withUnsafeBytes(of: &format.sizes) { sizes in
                    Array(sizes.bindMemory(to: pc_lc_size.self).prefix(max(0, min(Int(format.size_count), Int(PC_LC_MAX_SIZES)))))
                }
                return StreamFormat(
                    name: LibcameraResult.text(&format.name), fourcc: format.fourcc,
                    minimum: PixelSize(format.min), maximum: PixelSize(format.max), sizes: listed.map(PixelSize.init))
            }
        }
    }
}

extension PixelSize {
    /// The shim's size.
    init(_ size: pc_lc_size) {
        self.init(width: Int(size.width), height: Int(size.height))
    }
}
