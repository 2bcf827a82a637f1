import Imaging

/// The stream header of a YUV4MPEG2 clip: `YUV4MPEG2 W640 H480 F30000:1001 Ip A1:1 C420jpeg`,
/// parsed strictly (everything checked before a frame is allocated).
struct ClipHeader: Sendable, Equatable {
    /// The longest header read: ffmpeg's are under 100 bytes.
    static let maximumLength = 1024
    /// 4:2:0 layouts: the same planes, with chroma sited differently.
    static let chromaLayouts: Set<String> = ["420", "420jpeg", "420paldv", "420mpeg2"]

    let size: PixelSize
    /// Frames per second as a fraction (`F` parameter).
    let rateNumerator: UInt64
    let rateDenominator: UInt64
    /// Full range when ffmpeg marks it (`XCOLORRANGE=FULL`), else limited.
    let range: YCbCrRange
    /// Bytes of the header line, its line end included.
    let length: Int
    /// Bytes of one frame's planes.
    let frameByteCount: Int

    /// The header at the start of `bytes` (the file's first bytes, at most ``maximumLength``
    /// of them needed).
    init(_ bytes: some Collection<UInt8>) throws(ClipError) {
        let signature = Array("YUV4MPEG2 ".utf8)
        guard bytes.starts(with: signature) else { throw .notYUV4MPEG2 }
        let head = Array(bytes.prefix(Self.maximumLength))
        guard let end = head.firstIndex(of: UInt8(ascii: "\n")) else { throw .headerUnterminated(limit: Self.maximumLength) }
        length = end + 1
        var width: Int?, height: Int?, rate: (UInt64, UInt64)?
        var chroma = "420jpeg"  // the format's default when C is absent
        var range = YCbCrRange.limited
        for token in head[signature.count..<end].split(separator: UInt8(ascii: " ")) {
            let tag = Character(UnicodeScalar(token.first!))
            let value = String(decoding: token.dropFirst(), as: UTF8.self)
            switch tag {
            case "W": width = try Self.side(value, tag)
            case "H": height = try Self.side(value, tag)
            case "F":
                let parts = value.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, let numerator = UInt64(parts[0]), let denominator = UInt64(parts[1]),
                      (1...UInt64(UInt32.max)).contains(numerator), (1...UInt64(UInt32.max)).contains(denominator),
                      // At most 1000 frames a second, at least one an hour.
                      numerator <= denominator * 1000, numerator * 3600 >= denominator else {
                    throw .invalidParameter(tag, value: value)
                }
                rate = (numerator, denominator)
            case "C": chroma = value
            case "X" where value == "COLORRANGE=FULL": range = .full
            default: break  // interlacing, aspect, comments: not needed to play the frames
            }
        }
        guard let width else { throw .missingParameter("W") }
        guard let height else { throw .missingParameter("H") }
        guard let rate else { throw .missingParameter("F") }
        guard Self.chromaLayouts.contains(chroma) else { throw .unsupportedChroma(chroma) }
        let size = PixelSize(width: width, height: height)
        guard width % 2 == 0, height % 2 == 0 else { throw .oddSize(size) }
        do throws(ImagingError) {
            try PixelBudget.check(size)
            frameByteCount = try FramePixelFormat.i420.frameByteCount(size: size, bytesPerRow: width)
        } catch {
            throw .imaging(error)
        }
        self.size = size
        (rateNumerator, rateDenominator) = rate
        self.range = range
    }

    /// A side in pixels: decimal, 1 to 65535 (larger is refused before any arithmetic).
    private static func side(_ value: String, _ tag: Character) throws(ClipError) -> Int {
        guard value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let side = Int(value), (1...65535).contains(side) else {
            throw .invalidParameter(tag, value: value)
        }
        return side
    }

    /// Nanoseconds from the clip's start to frame `index`'s start, on the clip's timeline.
    func offset(ofFrame index: UInt64) -> UInt64 {
        let product = index.multipliedFullWidth(by: rateDenominator * 1_000_000_000)
        return rateNumerator.dividingFullWidth(product).quotient
    }
}
