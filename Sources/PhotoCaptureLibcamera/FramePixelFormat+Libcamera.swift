import Imaging

extension FramePixelFormat {
    /// The format libcamera names `name` (its DRM-based names: "BGR888" is R, G, B in memory),
    /// nil for one photocap cannot read.
    package init?(libcameraName name: String) {
        guard let format = Self.libcameraNames.first(where: { $0.name == name })?.format else { return nil }
        self = format
    }

    /// libcamera's name for the format.
    package var libcameraName: String? { Self.libcameraNames.first { $0.format == self }?.name }

    /// libcamera's formats (DRM fourccs, whose names give the order of a little-endian word,
    /// the reverse of memory order for the RGB ones) and photocap's (memory order, as V4L2's).
    private static let libcameraNames: [(name: String, format: FramePixelFormat)] = [
        ("YUYV", .yuyv), ("UYVY", .uyvy), ("NV12", .nv12), ("NV21", .nv21), ("YUV420", .i420), ("YVU420", .yv12),
        ("BGR888", .rgb24), ("RGB888", .bgr24),
        ("XRGB8888", .xbgr32), ("XBGR8888", .rgbx32), ("BGRX8888", .xrgb32), ("RGBX8888", .bgrx32),
        ("R8", .grey), ("MJPEG", .mjpeg),
        ("SRGGB8", .srggb8), ("SGRBG8", .sgrbg8), ("SGBRG8", .sgbrg8), ("SBGGR8", .sbggr8),
        ("SRGGB10", .srggb10), ("SGRBG10", .sgrbg10), ("SGBRG10", .sgbrg10), ("SBGGR10", .sbggr10),
        ("SRGGB12", .srggb12), ("SGRBG12", .sgrbg12), ("SGBRG12", .sgbrg12), ("SBGGR12", .sbggr12),
        ("SRGGB16", .srggb16), ("SGRBG16", .sgrbg16), ("SGBRG16", .sgbrg16), ("SBGGR16", .sbggr16),
        ("SRGGB10_CSI2P", .srggb10p), ("SGRBG10_CSI2P", .sgrbg10p), ("SGBRG10_CSI2P", .sgbrg10p), ("SBGGR10_CSI2P", .sbggr10p),
        ("SRGGB12_CSI2P", .srggb12p), ("SGRBG12_CSI2P", .sgrbg12p), ("SGBRG12_CSI2P", .sgbrg12p), ("SBGGR12_CSI2P", .sbggr12p),
    ]
}
