import CV4L2
import Glibc
import Imaging

/// An open V4L2 device node: queries, formats and controls. Streaming is ``V4L2Stream``.
///
/// The descriptor is opened through libv4l2 (format emulation off) and closed in `deinit`.
/// Calls may come from any thread: each is one ioctl, and the kernel serialises them.
package final class V4L2Device: Sendable {
    /// The path the device was opened at, e.g. `/dev/video0`.
    package let path: String
    let fd: Int32

    /// Opens `path`. Fails with EACCES, ENOENT, EBUSY... as ``V4L2Error/callFailed(device:call:errno:)``.
    package init(path: String) throws(V4L2Error) {
        self.path = path
        let result = pc_v4l2_open(path)
        if result == -ENOTTY { throw .notACaptureDevice(device: path) }
        fd = try check(result, .open, device: path)
    }

    deinit { _ = pc_v4l2_close(fd) }

    /// The driver, card, bus and capability bits.
    package func capabilities() throws(V4L2Error) -> V4L2Capabilities {
        var raw = v4l2_capability()
        try check(pc_v4l2_querycap(fd, &raw), .queryCapabilities, device: path)
        return V4L2Capabilities(raw)
    }

    /// The video inputs.
    package func inputs() throws(V4L2Error) -> [V4L2Input] {
        try enumerate(.enumerateInputs, limit: 64) { (index: UInt32) -> v4l2_input in
            var raw = v4l2_input()
            raw.index = index
            return raw
        } call: { pc_v4l2_enum_input(fd, &$0) }.map(V4L2Input.init)
    }

    /// Runs a VIDIOC_ENUM* ioctl for index 0, 1, 2... until the driver answers EINVAL (the end
    /// of the list; ENOTTY when it has no such list), at most `limit` entries.
    private func enumerate<Raw>(_ name: V4L2Call, limit: UInt32, _ make: (UInt32) -> Raw,
                                call: (inout Raw) -> Int32) throws(V4L2Error) -> [Raw] {
        var entries: [Raw] = []
        for index in 0..<limit {
            var raw = make(index)
            let result = call(&raw)
            if result == -EINVAL || result == -ENOTTY { break }
            try check(result, name, device: path)
            entries.append(raw)
        }
        return entries
    }

    /// The selected input, read again each time (its status flags can change while streaming).
    package func currentInput() throws(V4L2Error) -> V4L2Input? {
        var index: Int32 = 0
        let result = pc_v4l2_get_input(fd, &index)
        if result == -ENOTTY || result == -EINVAL { return nil }  // drivers without inputs
        try check(result, .getInput, device: path)
        return try inputs().first { $0.index == Int(index) }
    }

    /// The capture formats, in the driver's order.
    package func formats() throws(V4L2Error) -> [V4L2FormatDescription] {
        let csc = UInt32(V4L2_FMT_FLAG_CSC_YCBCR_ENC | V4L2_FMT_FLAG_CSC_QUANTIZATION)
        return try enumerate(.enumerateFormats, limit: 256) { (index: UInt32) -> v4l2_fmtdesc in
            var raw = v4l2_fmtdesc()
            raw.index = index
            raw.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            return raw
        } call: { pc_v4l2_enum_format(fd, &$0) }
            .filter { $0.flags & UInt32(V4L2_FMT_FLAG_EMULATED) == 0 }
            .map { raw in
                V4L2FormatDescription(
                    fourCC: FourCC(rawValue: raw.pixelformat), description: String(cTuple: raw.description),
                    isCompressed: raw.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0,
                    canSetColorSpace: raw.flags & csc == csc)
            }
    }

    /// The frame sizes `fourCC` offers; nil when the driver does not enumerate sizes.
    package func frameSizes(for fourCC: FourCC) throws(V4L2Error) -> V4L2FrameSizes? {
        let entries = try enumerate(.enumerateFrameSizes, limit: 1024) { (index: UInt32) -> v4l2_frmsizeenum in
            var raw = v4l2_frmsizeenum()
            raw.index = index
            raw.pixel_format = fourCC.rawValue
            return raw
        } call: { pc_v4l2_enum_frame_sizes(fd, &$0) }
        // A stepwise or continuous range is the only entry, at index 0.
        if let first = entries.first, first.type != V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
            let s = first.stepwise
            return .stepwise(minimum: PixelSize(width: Int(s.min_width), height: Int(s.min_height)),
                             maximum: PixelSize(width: Int(s.max_width), height: Int(s.max_height)),
                             step: PixelSize(width: Int(max(s.step_width, 1)), height: Int(max(s.step_height, 1))))
        }
        let sizes = entries.map { PixelSize(width: Int($0.discrete.width), height: Int($0.discrete.height)) }
        return sizes.isEmpty ? nil : .discrete(sizes)
    }

    /// The frame intervals of `fourCC` at `size`, fastest first; for stepwise ranges, the
    /// fastest and slowest.
    package func frameIntervals(for fourCC: FourCC, size: PixelSize) throws(V4L2Error) -> [V4L2FrameInterval] {
        let entries = try enumerate(.enumerateFrameIntervals, limit: 256) { (index: UInt32) -> v4l2_frmivalenum in
            var raw = v4l2_frmivalenum()
            raw.index = index
            raw.pixel_format = fourCC.rawValue
            raw.width = UInt32(size.width)
            raw.height = UInt32(size.height)
            return raw
        } call: { pc_v4l2_enum_frame_intervals(fd, &$0) }
        let intervals: [V4L2FrameInterval]
        if let first = entries.first, first.type != V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
            let s = first.stepwise
            intervals = [V4L2FrameInterval(numerator: Int(s.min.numerator), denominator: Int(s.min.denominator)),
                         V4L2FrameInterval(numerator: Int(s.max.numerator), denominator: Int(s.max.denominator))]
        } else {
            intervals = entries.map {
                V4L2FrameInterval(numerator: Int($0.discrete.numerator), denominator: Int($0.discrete.denominator))
            }
        }
        return intervals.sorted { $0.framesPerSecond > $1.framesPerSecond }
    }

    /// The current capture format.
    package func format() throws(V4L2Error) -> V4L2ActiveFormat {
        var raw = v4l2_format()
        raw.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try check(pc_v4l2_get_format(fd, &raw), .getFormat, device: path)
        return Self.activeFormat(raw)
    }

    /// Sets the capture format and returns what the driver chose (it may differ).
    ///
    /// Where the driver can convert (``V4L2FormatDescription/canSetColorSpace``), Y'CbCr is
    /// requested as BT.601 full range, which is what JPEG stores, so no conversion is needed.
    package func setFormat(_ fourCC: FourCC, size: PixelSize, requestJPEGColorSpace: Bool) throws(V4L2Error) -> V4L2ActiveFormat {
        var raw = v4l2_format()
        raw.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        raw.fmt.pix.pixelformat = fourCC.rawValue
        raw.fmt.pix.width = UInt32(size.width)
        raw.fmt.pix.height = UInt32(size.height)
        raw.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        if requestJPEGColorSpace {
            raw.fmt.pix.flags = UInt32(V4L2_PIX_FMT_FLAG_SET_CSC)
            raw.fmt.pix.colorspace = V4L2_COLORSPACE_SRGB.rawValue
            raw.fmt.pix.ycbcr_enc = UInt32(V4L2_YCBCR_ENC_601.rawValue)
            raw.fmt.pix.quantization = UInt32(V4L2_QUANTIZATION_FULL_RANGE.rawValue)
        }
        try check(pc_v4l2_set_format(fd, &raw), .setFormat, device: path)
        return Self.activeFormat(raw)
    }

    private static func activeFormat(_ raw: v4l2_format) -> V4L2ActiveFormat {
        let pix = raw.fmt.pix
        let fourCC = FourCC(rawValue: pix.pixelformat)
        let isYUV = FramePixelFormatHint.isYUV(fourCC)
        // V4L2_QUANTIZATION_DEFAULT means limited for Y'CbCr, full for RGB and Bayer.
        let quantization = UInt32(pix.quantization)
        let fullRange = quantization == V4L2_QUANTIZATION_FULL_RANGE.rawValue
            || (quantization == V4L2_QUANTIZATION_DEFAULT.rawValue && !isYUV)
        // V4L2_YCBCR_ENC_DEFAULT follows the colour space: REC709 (HD) means BT.709.
        let encoding = UInt32(pix.ycbcr_enc)
        let bt709 = encoding == V4L2_YCBCR_ENC_709.rawValue
            || (encoding == V4L2_YCBCR_ENC_DEFAULT.rawValue && pix.colorspace == V4L2_COLORSPACE_REC709.rawValue)
        return V4L2ActiveFormat(fourCC: fourCC, size: PixelSize(width: Int(pix.width), height: Int(pix.height)),
                                bytesPerLine: Int(pix.bytesperline), imageSize: Int(pix.sizeimage),
                                isFullRange: fullRange, usesBT709Matrix: bt709)
    }

    /// The current frame interval, when the driver reports one.
    package func frameInterval() throws(V4L2Error) -> V4L2FrameInterval? {
        var raw = v4l2_streamparm()
        raw.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        let result = pc_v4l2_get_parameters(fd, &raw)
        if result == -ENOTTY || result == -EINVAL { return nil }
        try check(result, .getStreamParameters, device: path)
        let f = raw.parm.capture.timeperframe
        return f.denominator == 0 ? nil : V4L2FrameInterval(numerator: Int(f.numerator), denominator: Int(f.denominator))
    }

    // MARK: Controls

    /// Every control, in the driver's order, with menu items filled in.
    package func controls() throws(V4L2Error) -> [V4L2Control] {
        var controls: [V4L2Control] = []
        var id = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) | UInt32(V4L2_CTRL_FLAG_NEXT_COMPOUND)
        while true {
            var raw = v4l2_query_ext_ctrl()
            raw.id = id
            let result = pc_v4l2_query_ext_control(fd, &raw)
            if result == -EINVAL || result == -ENOTTY { break }
            try check(result, .queryExtendedControl, device: path)
            id = raw.id | UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) | UInt32(V4L2_CTRL_FLAG_NEXT_COMPOUND)
            let kind = V4L2Control.kind(of: raw.type)
            let items = kind == .menu || kind == .integerMenu ? try menuItems(of: raw, integer: kind == .integerMenu) : []
            let control = V4L2Control(raw, menuItems: items)
            if !control.isDisabled { controls.append(control) }
        }
        return controls
    }

    private func menuItems(of raw: v4l2_query_ext_ctrl, integer: Bool) throws(V4L2Error) -> [V4L2Control.MenuItem] {
        guard raw.minimum >= 0, raw.maximum >= raw.minimum, raw.maximum - raw.minimum < 1024 else { return [] }
        var items: [V4L2Control.MenuItem] = []
        for index in raw.minimum...raw.maximum {
            var menu = v4l2_querymenu()
            menu.id = raw.id
            menu.index = UInt32(index)
            // Gaps in a menu answer EINVAL; they are skipped, not errors.
            guard pc_v4l2_query_menu(fd, &menu) == 0 else { continue }
            let label = integer ? String(menu.value) : String(cTuple: menu.name)
            items.append(V4L2Control.MenuItem(value: index, label: label))
        }
        return items
    }

    /// The current value of control `id`.
    package func value(of id: UInt32) throws(V4L2Error) -> Int64 {
        var value: Int64 = 0
        try check(pc_v4l2_get_control(fd, id, &value), .getExtendedControls, device: path)
        return value
    }

    /// Sets control `id` and returns the value the driver kept (drivers clamp and round).
    @discardableResult
    package func setValue(_ value: Int64, of id: UInt32) throws(V4L2Error) -> Int64 {
        try check(pc_v4l2_set_control(fd, id, value), .setExtendedControls, device: path)
        return (try? self.value(of: id)) ?? value
    }
}

/// Format facts the V4L2 layer needs before the frame format is known to the pipeline.
enum FramePixelFormatHint {
    static func isYUV(_ fourCC: FourCC) -> Bool {
        ["YUYV", "UYVY", "YVYU", "VYUY", "NV12", "NV21", "NV16", "NV61", "YU12", "YV12", "422P", "MJPG", "JPEG"]
            .contains(fourCC.description)
    }
}
