import CLibcamera
import Imaging
import PhotoCaptureCore
@testable import PhotoCaptureLibcamera
import Testing

/// What the libcamera backend makes of libcamera's listings, names and result codes: the parts
/// that need no camera. (The camera itself is proven in the vimc VM, Tests/LibcameraIntegration.)
@Suite struct LibcameraMappingTests {
    /// The shim is built beside the test bundle (the photocap-libcamera product), loads, and
    /// has this photocap's C interface.
    @Test func theShimLoadsFromBesideTheExecutable() throws {
        var reason = LibcameraResult.messageBuffer()
        let functions = try #require(pc_lc_load(&reason, reason.count), "\(LibcameraResult.message(reason))")
        #expect(functions.pointee.abi_version() == PC_LC_ABI_VERSION)
        #expect(String(cString: try #require(functions.pointee.version())).split(separator: ".").count == 3)
    }

    /// libcamera's RGB names are DRM's, which name a little-endian word: BGR888 is R, G, B in
    /// memory, photocap's rgb24. A swap here turns every photo's red into blue.
    @Test func rgbNamesAreMemoryOrderReversed() {
        #expect(FramePixelFormat(libcameraName: "BGR888") == .rgb24)
        #expect(FramePixelFormat(libcameraName: "RGB888") == .bgr24)
        #expect(FramePixelFormat(libcameraName: "XRGB8888") == .xbgr32)
        #expect(FramePixelFormat(libcameraName: "XBGR8888") == .rgbx32)
        #expect(FramePixelFormat(libcameraName: "SRGGB10_CSI2P") == .srggb10p)
        #expect(FramePixelFormat(libcameraName: "YUV420") == .i420)
        #expect(FramePixelFormat(libcameraName: "NV16") == nil)
    }

    /// Every name maps back to itself, so a configured stream asks for the format it listed.
    @Test func namesRoundTrip() {
        let named = FramePixelFormat.allCases.filter { $0.libcameraName != nil }
        #expect(named.count >= 30)
        for format in named {
            #expect(FramePixelFormat(libcameraName: format.libcameraName!) == format)
        }
    }

    /// The listing's Rotation becomes the mounting compensation uses; a front Location mirrors;
    /// an unreported or impossible rotation is none.
    @Test func listingGivesTheMounting() {
        let turned = LibcameraCameraInfo(Self.listing(rotation: 90, location: Int32(PC_LC_LOCATION_BACK)))
        #expect(turned.id == "platform/vimc.0 Sensor B")
        #expect(turned.model == "Sensor B")
        #expect(turned.rotation == 90)
        #expect(turned.location == .back)
        #expect(turned.sensorMounting == SensorMounting(rotation: 90))
        #expect(turned.pixelArray == PixelSize(width: 4096, height: 2160))

        let front = LibcameraCameraInfo(Self.listing(rotation: 270, location: Int32(PC_LC_LOCATION_FRONT)))
        #expect(front.sensorMounting == SensorMounting(rotation: 270, isMirrored: true))

        for unreported: Int32 in [-1, 45] {
            let info = LibcameraCameraInfo(Self.listing(rotation: unreported, location: Int32(PC_LC_LOCATION_UNKNOWN)))
            #expect(info.rotation == nil)
            #expect(info.location == nil)
            #expect(info.sensorMounting == .upright)
        }
    }

    /// Formats photocap reads become the device's, with libcamera's range or list of sizes; the
    /// others are named as unsupported; a raw stream's format is found as raw.
    @Test func listingGivesTheFormats() {
        let info = LibcameraCameraInfo(Self.listing(rotation: 0, location: Int32(PC_LC_LOCATION_UNKNOWN)))
        let (readable, unsupported) = info.deviceFormats
        #expect(readable.map(\.pixelFormat) == [.rgb24, .yuyv, .sgrbg8])
        #expect(readable[0].sizes == .stepwise(minimum: PixelSize(width: 16, height: 16), maximum: PixelSize(width: 4096, height: 2160),
                                               step: PixelSize(width: 1, height: 1)))
        #expect(readable[1].sizes == .discrete([PixelSize(width: 640, height: 480), PixelSize(width: 1920, height: 1080)]))
        #expect(unsupported == ["NV16"])
        // A list as long as the shim keeps is cut off: the range stands (vimc lists 16 common
        // sizes up to 1024x600 for a range up to 4092x2160).
        let common = (1...Int(PC_LC_MAX_SIZES)).map { (UInt32(16 * $0), UInt32(9 * $0)) }
        let cutOff = LibcameraCameraInfo.StreamFormat(
            name: "BGR888", fourcc: 0, minimum: PixelSize(width: 48, height: 48), maximum: PixelSize(width: 4092, height: 2160),
            sizes: common.map { PixelSize(width: Int($0.0), height: Int($0.1)) })
        #expect(cutOff.frameSizes.largest == PixelSize(width: 4092, height: 2160))
        #expect(info.streamFormat(for: .rgb24)?.isRaw == false)
        #expect(info.streamFormat(for: .sgrbg8)?.isRaw == true)
        #expect(info.streamFormat(for: .nv12) == nil)
    }

    /// A control as the shim lists it becomes a ``LibcameraControl`` with its name, type and
    /// texts; an array is marked; an empty default is none; a type added after this photocap
    /// is `other`, not another type's.
    @Test func controlListingGivesNameTypeAndRange() {
        func listed(_ name: String, type: Int32, array: Bool = false, range: (String, String), default value: String)
            -> LibcameraControl {
            var info = pc_lc_control_info()
            info.id = 9
            info.type = type
            info.is_array = array ? 1 : 0
            Self.copy(name, into: &info.name)
            Self.copy(range.0, into: &info.minimum)
            Self.copy(range.1, into: &info.maximum)
            Self.copy(value, into: &info.default_value)
            return LibcameraControl(info)
        }
        let brightness = listed("Brightness", type: Int32(PC_LC_TYPE_FLOAT), range: ("-1", "1"), default: "0")
        #expect(brightness == LibcameraControl(name: "Brightness", id: 9, valueType: .float, isArray: false,
                                               minimum: "-1", maximum: "1", defaultValue: "0"))
        let gains = listed("ColourGains", type: Int32(PC_LC_TYPE_FLOAT), array: true, range: ("0", "32"), default: "")
        #expect(gains.isArray && gains.defaultValue == nil)
        #expect(listed("ScalerCrop", type: Int32(PC_LC_TYPE_RECTANGLE), range: ("(0, 0)/0x0", "(0, 0)/4096x2160"), default: "").valueType == .rectangle)
        #expect(listed("ExposureTime", type: Int32(PC_LC_TYPE_INT32), range: ("1", "66666"), default: "20000").valueType == .int32)
        #expect(listed("AeEnable", type: Int32(PC_LC_TYPE_BOOL), range: ("false", "true"), default: "true").valueType == .bool)
        #expect(listed("Future", type: 42, range: ("", ""), default: "").valueType == .other)
    }

    /// The shim's result codes become typed errors naming the camera.
    @Test func resultCodesBecomeErrors() {
        let id = "platform/vimc.0 Sensor B"
        func error(_ code: Int32) -> LibcameraError? {
            LibcameraError(result: code, call: .configure, camera: id, message: "why", requested: "rgb24 640x480")
        }
        #expect(error(Int32(PC_LC_OK)) == nil)
        #expect(error(Int32(PC_LC_BUSY)) == .busy(camera: id))
        #expect(error(Int32(PC_LC_NOT_FOUND)) == .notFound(camera: id))
        #expect(error(Int32(PC_LC_REMOVED)) == .removed(camera: id))
        #expect(error(Int32(PC_LC_INVALID)) == .configurationRefused(camera: id, requested: "rgb24 640x480", reason: "why"))
        #expect(error(Int32(PC_LC_ERROR)) == .callFailed(camera: id, call: .configure, reason: "why"))
    }

    /// Busy, unplugged and unknown cameras get the codes a V4L2 camera's would, attributed to
    /// the request; other failures keep the libcamera error as their typed cause.
    @Test func errorsBecomePhotoCaptureErrors() {
        let id = "platform/vimc.0 Sensor B"
        #expect(PhotoCaptureError(LibcameraError.busy(camera: id)).code == .deviceBusy(device: id))
        #expect(PhotoCaptureError(LibcameraError.notFound(camera: id)).code == .noSuchDevice(device: id))
        let removed = PhotoCaptureError(LibcameraError.removed(camera: id)).attributed(to: 7)
        #expect(removed.code == .deviceDisconnected(device: id))
        #expect(removed.uniqueID == 7)
        #expect(PhotoCaptureError(LibcameraError.timeout(camera: id, milliseconds: 500)).code
            == .frameTimeout(milliseconds: 500, device: id, frame: .next))

        let failed = LibcameraError.callFailed(camera: id, call: .queue, reason: "queue: Invalid argument")
        guard case .deviceCallFailed(let device) = PhotoCaptureError(failed).code else {
            Issue.record("a failed call is not deviceCallFailed")
            return
        }
        #expect(device.device == id)
        #expect(device.call == "queueing a request")
        #expect(device.underlying as? LibcameraError == failed)
    }

    /// A listing as the shim fills it for vimc's sensor: BGR888 over a range, YUYV in two
    /// sizes, NV16 (which photocap cannot read), and a raw stream of SGRBG8.
    static func listing(rotation: Int32, location: Int32) -> pc_lc_camera_info {
        var info = pc_lc_camera_info()
        copy("platform/vimc.0 Sensor B", into: &info.id)
        copy("Sensor B", into: &info.model)
        info.rotation = rotation
        info.location = location
        info.pixel_array = pc_lc_size(width: 4096, height: 2160)
        info.still_format_count = 3
        withUnsafeMutableBytes(of: &info.still_formats) { bytes in
            let formats = bytes.bindMemory(to: pc_lc_format.self)
            formats[0] = format("BGR888", min: (16, 16), max: (4096, 2160), sizes: [])
            formats[1] = format("YUYV", min: (640, 480), max: (1920, 1080), sizes: [(640, 480), (1920, 1080)])
            formats[2] = format("NV16", min: (16, 16), max: (4096, 2160), sizes: [])
        }
        info.raw_format_count = 1
        withUnsafeMutableBytes(of: &info.raw_formats) { bytes in
            bytes.bindMemory(to: pc_lc_format.self)[0] = format("SGRBG8", min: (4096, 2160), max: (4096, 2160), sizes: [(4096, 2160)])
        }
        info.flips = -1
        return info
    }

    static func format(_ name: String, min: (UInt32, UInt32), max: (UInt32, UInt32), sizes: [(UInt32, UInt32)]) -> pc_lc_format {
        var format = pc_lc_format()
        copy(name, into: &format.name)
        format.min = pc_lc_size(width: min.0, height: min.1)
        format.max = pc_lc_size(width: max.0, height: max.1)
        format.size_count = Int32(sizes.count)
        withUnsafeMutableBytes(of: &format.sizes) { bytes in
            let list = bytes.bindMemory(to: pc_lc_size.self)
            for (index, size) in sizes.enumerated() { list[index] = pc_lc_size(width: size.0, height: size.1) }
        }
        return format
    }

    static func copy<T>(_ text: String, into tuple: inout T) {
        withUnsafeMutableBytes(of: &tuple) { bytes in
            let utf8 = Array(text.utf8.prefix(bytes.count - 1))
            bytes.copyBytes(from: utf8)
            bytes[utf8.count] = 0
        }
    }
}
