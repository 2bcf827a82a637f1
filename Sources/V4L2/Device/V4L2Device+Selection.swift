import CV4L2
import Glibc
import Imaging

/// A rectangle of the V4L2 selection API for video capture (VIDIOC_G/S_SELECTION).
package enum V4L2SelectionTarget: Sendable, Hashable, CustomStringConvertible {
    /// The part of the source the device captures (V4L2_SEL_TGT_CROP).
    case crop
    /// The crop the driver uses by default: the whole active picture (V4L2_SEL_TGT_CROP_DEFAULT).
    case cropDefault
    /// The largest crop possible (V4L2_SEL_TGT_CROP_BOUNDS).
    case cropBounds
    /// Where in the buffer the cropped picture is written (V4L2_SEL_TGT_COMPOSE).
    case compose

    var rawValue: UInt32 {
        switch self {
        case .crop: return UInt32(V4L2_SEL_TGT_CROP)
        case .cropDefault: return UInt32(V4L2_SEL_TGT_CROP_DEFAULT)
        case .cropBounds: return UInt32(V4L2_SEL_TGT_CROP_BOUNDS)
        case .compose: return UInt32(V4L2_SEL_TGT_COMPOSE)
        }
    }

    /// The V4L2 name, e.g. `V4L2_SEL_TGT_CROP`.
    package var description: String {
        switch self {
        case .crop: return "V4L2_SEL_TGT_CROP"
        case .cropDefault: return "V4L2_SEL_TGT_CROP_DEFAULT"
        case .cropBounds: return "V4L2_SEL_TGT_CROP_BOUNDS"
        case .compose: return "V4L2_SEL_TGT_COMPOSE"
        }
    }
}

extension V4L2Device {
    /// The rectangle `target` of the current input, or nil when the driver has none: ENOTTY (no
    /// selection API), ENODATA (not for this input: vivid's webcam input) or EINVAL (not this
    /// target: a device that crops but does not compose).
    package func selection(_ target: V4L2SelectionTarget) throws(V4L2Error) -> PixelRect? {
        var raw = v4l2_selection()
        raw.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        raw.target = target.rawValue
        let result = pc_v4l2_get_selection(fd, &raw)
        if result == -ENOTTY || result == -ENODATA || result == -EINVAL { return nil }
        try check(result, .getSelection, device: path)
        return PixelRect(raw.r)
    }

    /// Sets `target` to `rect` and returns the rectangle the driver kept (drivers align and
    /// clamp). Drivers refuse a new crop size with EBUSY while buffers are allocated.
    @discardableResult
    package func setSelection(_ target: V4L2SelectionTarget, to rect: PixelRect) throws(V4L2Error) -> PixelRect {
        var raw = v4l2_selection()
        raw.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        raw.target = target.rawValue
        raw.r = v4l2_rect(left: Int32(rect.x), top: Int32(rect.y), width: UInt32(rect.size.width),
                          height: UInt32(rect.size.height))
        try check(pc_v4l2_set_selection(fd, &raw), .setSelection, device: path)
        return PixelRect(raw.r)
    }

    /// Selects input `index` (VIDIOC_S_INPUT); the driver keeps it for later opens too. An index
    /// the device does not have fails with ``V4L2Error/noSuchInput(device:index:available:)``.
    package func selectInput(_ index: Int) throws(V4L2Error) {
        let inputs = try inputs()
        guard inputs.contains(where: { $0.index == index }) else {
            throw .noSuchInput(device: path, index: index, available: inputs.map { "\($0.index) (\($0.name))" })
        }
        var value = Int32(index)
        try check(pc_v4l2_set_input(fd, &value), .setInput, device: path)
    }
}

extension PixelRect {
    init(_ rect: v4l2_rect) {
        self.init(x: Int(rect.left), y: Int(rect.top), size: PixelSize(width: Int(rect.width), height: Int(rect.height)))
    }
}

extension V4L2Device {
    /// Sets the capture format, with the driver cropping the source to `crop` (in the driver's
    /// crop coordinates) when given, and returns the format the driver chose.
    ///
    /// With a crop, the frame size is the crop's size: the driver crops and does not scale. The
    /// format is set first, then the crop, and both are read back; a driver that moves, resizes,
    /// scales or letterboxes the crop fails with ``V4L2Error/cropNotAccepted(device:requested:granted:)``.
    /// Without a crop, a crop left behind (drivers keep it across opens) is reset to the
    /// default before the format is set, so the frame shows the whole picture unscaled. Either
    /// way a compose rectangle smaller than the frame (the picture letterboxed inside the buffer)
    /// is set back to the whole frame.
    package func configureCapture(_ fourCC: FourCC, size: PixelSize, crop: PixelRect?,
                                 requestJPEGColorSpace: Bool) throws(V4L2Error) -> V4L2ActiveFormat {
        var granted: PixelRect?
        if let crop {
            guard try selection(.cropBounds) != nil else {
                throw .cropNotAccepted(device: path, requested: crop, granted: nil)
            }
            _ = try setFormat(fourCC, size: crop.size, requestJPEGColorSpace: requestJPEGColorSpace)
            granted = try setSelection(.crop, to: crop)
        } else {
            if let whole = try selection(.cropDefault), try selection(.crop) != whole {
                try setSelection(.crop, to: whole)
            }
            _ = try setFormat(fourCC, size: size, requestJPEGColorSpace: requestJPEGColorSpace)
        }
        // Read back: a crop may have changed the format (drivers without a scaler follow it).
        var format = try self.format()
        let frame = PixelRect(covering: format.size)
        if let compose = try selection(.compose), compose != frame {
            try setSelection(.compose, to: frame)
            format = try self.format()
        }
        if let crop {
            let compose = try selection(.compose)
            guard granted == crop, format.size == crop.size, compose == nil || compose == PixelRect(covering: crop.size) else {
                throw .cropNotAccepted(device: path, requested: crop, granted: granted)
            }
        }
        return format
    }
}
