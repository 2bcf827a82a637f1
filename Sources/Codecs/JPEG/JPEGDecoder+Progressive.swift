import Imaging

extension JPEGDecoder {
    /// Progressive JPEGs of more pixels than this are re-coded as baseline before a whole
    /// decode (``decodable(_:)``); smaller ones are decoded as they are, the re-coding's time
    /// saving little memory.
    package static let progressiveRecodingArea = 1 << 26

    /// `jpeg`, or, when it is a progressive JPEG of more than ``progressiveRecodingArea``
    /// pixels, a baseline JPEG of the same DCT coefficients, tables and markers — the same
    /// decoded pixels. libjpeg decodes a progressive file only once every scan is read into
    /// coefficients, which it holds while it makes the picture: 2 bytes a sample, as many bytes
    /// as the RGB picture itself at 4:2:0, twice as many at 4:4:4. Re-coded first (in strips
    /// of 32 MiB of coefficients, as ``JPEGLosslessTransform`` turns), the coefficients are
    /// gone before the picture is made. `jpeg` as it is when libjpeg's coefficient API does not
    /// take it or warns about its data (cut short, damaged): its decode then says why.
    package static func decodable(_ jpeg: [UInt8]) -> [UInt8] {
        guard let segments = try? JPEGFile.headerSegments(of: jpeg), let frame = JPEGFile.frameSegment(in: segments.list),
              [0xC2, 0xC6, 0xCA, 0xCE].contains(frame.marker), frame.range.upperBound - frame.payloadStart >= 5 else { return jpeg }
        let start = frame.payloadStart
        let height = Int(jpeg[start + 1]) << 8 | Int(jpeg[start + 2])
        let width = Int(jpeg[start + 3]) << 8 | Int(jpeg[start + 4])
        guard width * height > progressiveRecodingArea,
              let markers = try? JPEGFile.applicationSegments(of: jpeg),
              let turn = try? JPEGCoefficientTurn(jpeg, orientation: .up, strips: Processors.active), !turn.readWithWarnings,
              let baseline = try? turn.turned(inserting: markers).jpeg else { return jpeg }
        return baseline
    }
}
