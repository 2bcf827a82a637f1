/// The layout of the bytes of a camera frame, named after its V4L2 pixel format.
public enum FramePixelFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Packed 4:2:2, Y0 U Y1 V (`YUYV`).
    case yuyv
    /// Packed 4:2:2, U Y0 V Y1 (`UYVY`).
    case uyvy
    /// Semi-planar 4:2:0, a Y plane then interleaved UV (`NV12`).
    case nv12
    /// Semi-planar 4:2:0, a Y plane then interleaved VU (`NV21`).
    case nv21
    /// Planar 4:2:0, Y then U then V (`YU12`, also called I420).
    case i420
    /// Planar 4:2:0, Y then V then U (`YV12`).
    case yv12
    /// Packed RGB, 8 bits each, R G B in memory (`RGB3`).
    case rgb24
    /// Packed RGB, 8 bits each, B G R in memory (`BGR3`).
    case bgr24
    /// Packed 32-bit RGB, B G R X in memory (`XR24`, V4L2's XBGR32).
    case xbgr32
    /// Packed 32-bit RGB, R G B X in memory (`XB24`, V4L2's RGBX32).
    case rgbx32
    /// Packed 32-bit RGB, X R G B in memory (`BX24`, V4L2's XRGB32).
    case xrgb32
    /// Packed 32-bit RGB, X B G R in memory (`RX24`, V4L2's BGRX32).
    case bgrx32
    /// 8-bit luma only (`GREY`).
    case grey
    /// Bayer RGGB, 8 bits per sample (`RGGB`).
    case srggb8
    /// Bayer GRBG, 8 bits per sample (`GRBG`).
    case sgrbg8
    /// Bayer GBRG, 8 bits per sample (`GBRG`).
    case sgbrg8
    /// Bayer BGGR, 8 bits per sample (`BA81`).
    case sbggr8
    /// Bayer RGGB, 10 bits in 16-bit little-endian words (`RG10`).
    case srggb10
    /// Bayer GRBG, 10 bits in 16-bit words (`BA10`).
    case sgrbg10
    /// Bayer GBRG, 10 bits in 16-bit words (`GB10`).
    case sgbrg10
    /// Bayer BGGR, 10 bits in 16-bit words (`BG10`).
    case sbggr10
    /// Bayer RGGB, 12 bits in 16-bit words (`RG12`).
    case srggb12
    /// Bayer GRBG, 12 bits in 16-bit words (`BA12`).
    case sgrbg12
    /// Bayer GBRG, 12 bits in 16-bit words (`GB12`).
    case sgbrg12
    /// Bayer BGGR, 12 bits in 16-bit words (`BG12`).
    case sbggr12
    /// Bayer RGGB, 16 bits per sample (`RG16`).
    case srggb16
    /// Bayer GRBG, 16 bits per sample (`GR16`).
    case sgrbg16
    /// Bayer GBRG, 16 bits per sample (`GB16`).
    case sgbrg16
    /// Bayer BGGR, 16 bits per sample (`BYR2`).
    case sbggr16
    /// Bayer RGGB, 10 bits MIPI CSI-2 packed: 4 samples in 5 bytes (`pRAA`).
    case srggb10p
    /// Bayer GRBG, 10 bits CSI-2 packed (`pgAA`).
    case sgrbg10p
    /// Bayer GBRG, 10 bits CSI-2 packed (`pGAA`).
    case sgbrg10p
    /// Bayer BGGR, 10 bits CSI-2 packed (`pBAA`).
    case sbggr10p
    /// Bayer RGGB, 12 bits MIPI CSI-2 packed: 2 samples in 3 bytes (`pRCC`).
    case srggb12p
    /// Bayer GRBG, 12 bits CSI-2 packed (`pgCC`).
    case sgrbg12p
    /// Bayer GBRG, 12 bits CSI-2 packed (`pGCC`).
    case sgbrg12p
    /// Bayer BGGR, 12 bits CSI-2 packed (`pBCC`).
    case sbggr12p
    /// Motion JPEG: each frame is a complete JPEG file (`MJPG`), as webcams deliver it.
    case mjpeg

    /// The four-character code V4L2 uses for this format.
    public var fourCC: String {
        switch self {
        case .yuyv: return "YUYV"
        case .uyvy: return "UYVY"
        case .nv12: return "NV12"
        case .nv21: return "NV21"
        case .i420: return "YU12"
        case .yv12: return "YV12"
        case .rgb24: return "RGB3"
        case .bgr24: return "BGR3"
        case .xbgr32: return "XR24"
        case .rgbx32: return "XB24"
        case .xrgb32: return "BX24"
        case .bgrx32: return "RX24"
        case .grey: return "GREY"
        case .srggb8: return "RGGB"
        case .sgrbg8: return "GRBG"
        case .sgbrg8: return "GBRG"
        case .sbggr8: return "BA81"
        case .srggb10: return "RG10"
        case .sgrbg10: return "BA10"
        case .sgbrg10: return "GB10"
        case .sbggr10: return "BG10"
        case .srggb12: return "RG12"
        case .sgrbg12: return "BA12"
        case .sgbrg12: return "GB12"
        case .sbggr12: return "BG12"
        case .srggb16: return "RG16"
        case .sgrbg16: return "GR16"
        case .sgbrg16: return "GB16"
        case .sbggr16: return "BYR2"
        case .srggb10p: return "pRAA"
        case .sgrbg10p: return "pgAA"
        case .sgbrg10p: return "pGAA"
        case .sbggr10p: return "pBAA"
        case .srggb12p: return "pRCC"
        case .sgrbg12p: return "pgCC"
        case .sgbrg12p: return "pGCC"
        case .sbggr12p: return "pBCC"
        case .mjpeg: return "MJPG"
        }
    }

    /// The order of the 2×2 colour filter tile of a Bayer format, read row by row.
    public enum BayerPattern: String, Sendable, CaseIterable {
        /// Red, green / green, blue.
        case rggb
        /// Green, red / blue, green.
        case grbg
        /// Green, blue / red, green.
        case gbrg
        /// Blue, green / green, red.
        case bggr

        /// The colour of each site of the tile, row by row: 0 red, 1 green, 2 blue.
        public var colorIndices: [UInt8] {
            switch self {
            case .rggb: return [0, 1, 1, 2]
            case .grbg: return [1, 0, 2, 1]
            case .gbrg: return [1, 2, 0, 1]
            case .bggr: return [2, 1, 1, 0]
            }
        }
    }

    /// The colour filter tile for Bayer formats; nil for the others.
    public var bayerPattern: BayerPattern? {
        switch self {
        case .srggb8, .srggb10, .srggb12, .srggb16, .srggb10p, .srggb12p: return .rggb
        case .sgrbg8, .sgrbg10, .sgrbg12, .sgrbg16, .sgrbg10p, .sgrbg12p: return .grbg
        case .sgbrg8, .sgbrg10, .sgbrg12, .sgbrg16, .sgbrg10p, .sgbrg12p: return .gbrg
        case .sbggr8, .sbggr10, .sbggr12, .sbggr16, .sbggr10p, .sbggr12p: return .bggr
        default: return nil
        }
    }

    /// Whether this is sensor data behind a colour filter array (RAW).
    public var isBayer: Bool { bayerPattern != nil }

    /// Whether samples are MIPI CSI-2 packed (10 bits: 4 in 5 bytes; 12 bits: 2 in 3 bytes).
    public var isCSI2Packed: Bool {
        switch self {
        case .srggb10p, .sgrbg10p, .sgbrg10p, .sbggr10p, .srggb12p, .sgrbg12p, .sgbrg12p, .sbggr12p: return true
        default: return false
        }
    }

    /// The format with the same pattern and bits, one sample per 16-bit little-endian word, that
    /// a CSI-2 packed format unpacks to; the format itself when it is not packed.
    public var unpacked: FramePixelFormat {
        guard isCSI2Packed, let pattern = bayerPattern else { return self }
        return Self.bayer(pattern, bits: bitsPerSample)!
    }

    /// Significant bits per Bayer sample (8, 10, 12 or 16); 8 for the other formats.
    public var bitsPerSample: Int {
        switch self {
        case .srggb10, .sgrbg10, .sgbrg10, .sbggr10, .srggb10p, .sgrbg10p, .sgbrg10p, .sbggr10p: return 10
        case .srggb12, .sgrbg12, .sgbrg12, .sbggr12, .srggb12p, .sgrbg12p, .sgbrg12p, .sbggr12p: return 12
        case .srggb16, .sgrbg16, .sgbrg16, .sbggr16: return 16
        default: return 8
        }
    }

    /// Whether frames are compressed files (MJPEG) rather than pixel arrays.
    public var isCompressed: Bool { self == .mjpeg }

    /// The Bayer format with `pattern` and `bits` (8, 10, 12 or 16) per sample, one sample per
    /// byte or 16-bit word (not packed).
    public static func bayer(_ pattern: BayerPattern, bits: Int) -> FramePixelFormat? {
        allCases.first { $0.bayerPattern == pattern && $0.bitsPerSample == bits && !$0.isCSI2Packed }
    }

    /// The format for a V4L2 four-character code or a lowercase name (`yuyv`, `YU12`, `i420`...).
    /// Codes are matched exactly first: `pgAA` (GRBG) and `pGAA` (GBRG) differ only in case, so
    /// `pgaa` names neither.
    public init?(name: String) {
        let lowered = name.lowercased()
        if let format = FramePixelFormat.allCases.first(where: { $0.fourCC == name }) {
            self = format
        } else if let format = FramePixelFormat(rawValue: lowered) {
            self = format
        } else {
            // Any case, unless that is ambiguous (`pgaa`).
            let matches = FramePixelFormat.allCases.filter { $0.fourCC.lowercased() == lowered }
            guard matches.count == 1 else { return nil }
            self = matches[0]
        }
    }

    /// Whether the samples are Y'CbCr (as opposed to RGB or luma only).
    public var isYUV: Bool {
        switch self {
        case .yuyv, .uyvy, .nv12, .nv21, .i420, .yv12: return true
        default: return false
        }
    }

    /// Whether the format subsamples chroma vertically, which makes odd crop rows impossible.
    public var hasVerticalSubsampling: Bool {
        switch self {
        case .nv12, .nv21, .i420, .yv12: return true
        default: return false
        }
    }

    /// Bytes in one row of the first plane with no padding.
    public func minimumBytesPerRow(width: Int) -> Int {
        switch self {
        case .yuyv, .uyvy: return ((width + 1) / 2) * 4
        case .nv12, .nv21, .i420, .yv12, .grey, .srggb8, .sgrbg8, .sgbrg8, .sbggr8: return width
        case .rgb24, .bgr24: return width * 3
        case .xbgr32, .rgbx32, .xrgb32, .bgrx32: return width * 4
        case .srggb10, .sgrbg10, .sgbrg10, .sbggr10, .srggb12, .sgrbg12, .sgbrg12, .sbggr12,
             .srggb16, .sgrbg16, .sgbrg16, .sbggr16: return width * 2
        case .srggb10p, .sgrbg10p, .sgbrg10p, .sbggr10p: return (width + 3) / 4 * 5
        case .srggb12p, .sgrbg12p, .sgbrg12p, .sbggr12p: return (width + 1) / 2 * 3
        case .mjpeg: return 0
        }
    }

    /// Bytes in a whole frame of `size` whose first plane has `bytesPerRow` bytes per row.
    ///
    /// Chroma planes follow the V4L2 single-plane conventions: NV12/NV21 chroma rows have the
    /// luma stride, I420/YV12 chroma rows half of it. MJPEG frames have no fixed size: 0.
    /// Sizes come from command lines, files and drivers, so the arithmetic is checked: a count
    /// that does not fit in an `Int` throws ``ImagingError/sizeOverflow(_:format:)``, a negative
    /// size or stride ``ImagingError/invalidSize(_:)``.
    public func frameByteCount(size: PixelSize, bytesPerRow: Int) throws(ImagingError) -> Int {
        guard size.width >= 0, size.height >= 0, bytesPerRow >= 0 else { throw .invalidSize(size) }
        func product(_ a: Int, _ b: Int) throws(ImagingError) -> Int {
            let (value, overflow) = a.multipliedReportingOverflow(by: b)
            guard !overflow else { throw .sizeOverflow(size, format: self) }
            return value
        }
        func sum(_ a: Int, _ b: Int) throws(ImagingError) -> Int {
            let (value, overflow) = a.addingReportingOverflow(b)
            guard !overflow else { throw .sizeOverflow(size, format: self) }
            return value
        }
        let chromaRows = size.height / 2 + size.height % 2
        switch self {
        case .mjpeg:
            return 0
        case .nv12, .nv21:
            return try product(bytesPerRow, sum(size.height, chromaRows))
        case .i420, .yv12:
            let chromaStride = bytesPerRow / 2 + bytesPerRow % 2
            return try sum(product(bytesPerRow, size.height), product(2, product(chromaStride, chromaRows)))
        default:
            return try product(bytesPerRow, size.height)
        }
    }

    /// Bytes in one row of the first plane with no padding, or nil when that overflows an
    /// `Int` (a width no real frame has).
    public func checkedMinimumBytesPerRow(width: Int) -> Int? {
        guard width >= 0, width <= Int.max / 4 - 1 else { return nil }
        return minimumBytesPerRow(width: width)
    }

    /// The V4L2 code, for messages.
    public var description: String { fourCC }
}
