extension JPEGFile {
    /// The fewest bytes of coded data a complete Huffman-coded JPEG of `jpeg`'s declared frame
    /// can have: every 8×8 block of every component is coded with at least one bit (its DC
    /// difference's code; a baseline block adds its end-of-block code). Nil for arithmetic
    /// coding, which can code a flat block in less, and for a frame header that does not say.
    ///
    /// A file shorter than this cannot hold the picture it declares, whatever its markers say,
    /// so its planes need not be allocated to find the data missing.
    package static func fewestCodedBytes(of jpeg: [UInt8]) -> Int? {
        guard let segments = try? headerSegments(of: jpeg), let frame = frameSegment(in: segments.list),
              [0xC0, 0xC1, 0xC2, 0xC3].contains(frame.marker) else { return nil }
        // SOF: precision, height, width, component count, then (id, H<<4 | V, table) each.
        let start = frame.payloadStart
        guard frame.range.upperBound - start >= 6 else { return nil }
        let height = Int(jpeg[start + 1]) << 8 | Int(jpeg[start + 2])
        let width = Int(jpeg[start + 3]) << 8 | Int(jpeg[start + 4])
        let count = Int(jpeg[start + 5])
        guard width > 0, height > 0, count > 0, frame.range.upperBound - start >= 6 + 3 * count else { return nil }
        let factors: [(Int, Int)] = (0..<count).map { index in
            let sampling = Int(jpeg[start + 7 + 3 * index])
            return (sampling >> 4, sampling & 0x0F)
        }
        guard factors.allSatisfy({ (1...4).contains($0.0) && (1...4).contains($0.1) }) else { return nil }
        let (maxH, maxV) = (factors.map(\.0).max()!, factors.map(\.1).max()!)
        func blocks(_ samples: Int) -> Int { (samples + 7) / 8 }
        let total = factors.reduce(0) { sum, factor in
            sum + blocks((width * factor.0 + maxH - 1) / maxH) * blocks((height * factor.1 + maxV - 1) / maxV)
        }
        return (total + 7) / 8
    }

    /// The frame header (SOF0–SOF15; not DHT, JPG or DAC, which share the range) among a
    /// file's header segments.
    static func frameSegment(in segments: [Segment]) -> Segment? {
        segments.first { (0xC0...0xCF).contains($0.marker) && ![0xC4, 0xC8, 0xCC].contains($0.marker) }
    }
}
