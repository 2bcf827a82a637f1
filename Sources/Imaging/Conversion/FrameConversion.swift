import CImagingKernels

/// One conversion of a frame into planar pixels (``FrameConverter``'s pass: format, crop,
/// range, mirror and turn), done a band of output rows at a time by whoever needs the rows:
/// a strip encoder converts its rows just before it encodes them, while they are in cache —
/// into the whole image, or into a band-sized buffer of its own that it then encodes.
///
/// Every band is byte for byte what ``FrameConverter/convert(_:crop:applying:)`` writes there.
/// Holds the frame (its storage stays alive with the conversion). Unchecked: the frame is only
/// read, and bands that do not overlap write disjoint rows, so they may be converted on
/// different threads.
package struct FrameConversion: @unchecked Sendable {
    /// The size of the converted image.
    package let size: PixelSize
    /// Whether keeping the conversion for later costs no memory beyond what the frame's source
    /// keeps anyway (``FrameStorage/Holder/source``): never a camera's buffer, which the
    /// camera needs back, nor a frame made for this photo alone (a decoded or developed frame,
    /// unpacked samples).
    package var isFreeToKeep: Bool { frame.storage.holder == .source }
    let frame: Frame
    /// The crop, in frame pixels (even).
    let rect: PixelRect
    /// The vertical flip every orientation starts with (rows read bottom-up) …
    let flipsVertically: Bool
    /// … and the clockwise quarter turns after it.
    let rotation: Int
    let expandRange: Bool
    /// Rows of the (flipped) crop converted at a time: `FrameConverter`'s strip height.
    let stripHeight: Int
    /// Rows of the crop converted at a time into a quarter-turned band of output rows:
    /// `FrameConverter`'s block height.
    let blockHeight: Int

    /// A clockwise turn puts the last rows of the crop at the left of the output: a short first
    /// strip of this many rows, so every full strip lands on cache-line-aligned columns.
    var lead: Int { lead(strips: stripHeight) }

    /// The short first strip of ``lead`` for strips of `height` rows.
    func lead(strips height: Int) -> Int { rotation == 1 ? rect.size.height % height : 0 }

    init(frame: Frame, crop: PixelRect?, transform: Orientation, converter: FrameConverter) throws(ImagingError) {
        // CSI-2 packed samples are unpacked first (a frame the photo pipeline hands over already is).
        self.frame = try frame.unpackedCSI2()
        rect = try FrameConverter.effectiveCrop(crop, frameSize: self.frame.size)
        size = transform.apply(to: rect.size)
        guard !self.frame.format.isCompressed else { throw .compressedFrame(self.frame.format) }
        // Any orientation is a vertical flip (free: read rows bottom-up) followed by a rotation.
        flipsVertically = transform.isMirrored
        rotation = (transform.clockwiseQuarterTurns - (flipsVertically ? 2 : 0) + 4) % 4
        expandRange = self.frame.range == .limited && (self.frame.format.isYUV || self.frame.format == .grey)
        stripHeight = rotation % 2 == 1 ? converter.quarterTurnStripHeight : converter.stripHeight
        blockHeight = converter.quarterTurnBlockHeight
    }

    /// Converts output rows `rows` (an even start; an even end unless it is the last row) into
    /// `target`, whose first row is output row `firstRow` (even): the whole image (0), or a band
    /// buffer holding these rows.
    ///
    /// Upright or half-turned, they come from a band of rows of the crop; quarter-turned, from a
    /// band of its columns, read down all its rows a block at a time (``blockHeight`` rows)
    /// and turned into the band with the band kept in cache, for the encoder that reads it next.
    package func convert(rows: Range<Int>, into target: PlanarImage, firstRow: Int = 0) throws(ImagingError) {
        guard rows.lowerBound >= 0, rows.upperBound <= size.height, rows.lowerBound % 2 == 0,
              rows.upperBound % 2 == 0 || rows.upperBound == size.height, !rows.isEmpty,
              firstRow % 2 == 0, firstRow <= rows.lowerBound, rows.upperBound - firstRow <= target.size.height,
              target.size.width == size.width
        else { throw .invalidSize(PixelSize(width: size.width, height: rows.count)) }
        let (width, height) = (rect.size.width, rect.size.height)
        let output = Output(image: target, firstRow: firstRow)
        try withSource { (source) throws(ImagingError) in
            switch rotation {
            case 0:
                try convertStrips(source, cropRows: rows, columns: 0..<width, into: output)
            case 2:
                try convertStrips(source, cropRows: (height - rows.upperBound)..<(height - rows.lowerBound), columns: 0..<width,
                                  into: output)
            case 1:
                try convertStrips(source, cropRows: 0..<height, columns: rows, into: output, keepingInCache: true)
            default:
                try convertStrips(source, cropRows: 0..<height, columns: (width - rows.upperBound)..<(width - rows.lowerBound),
                                  into: output, keepingInCache: true)
            }
        }
    }

    /// Where converted rows go: `image`, whose first row is output row `firstRow`.
    struct Output {
        let image: PlanarImage
        let firstRow: Int
    }

    /// Runs `body` with the frame's samples, which stay valid through it.
    func withSource(_ body: (SourcePlanes) throws(ImagingError) -> Void) throws(ImagingError) {
        var failure: ImagingError?
        frame.storage.withUnsafeBytes { bytes in
            do throws(ImagingError) {
                try body(SourcePlanes(frame: frame, base: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Converts rows `cropRows` and columns `columns` of the (flipped) crop into their place in
    /// `output`, `stripHeight` rows at a time; a rotated strip goes through a small buffer
    /// that stays in cache. From the crop's first row, the strips start after ``lead``.
    ///
    /// `keepingInCache` (a band of a fused quarter turn, encoded right after): strips are
    /// ``blockHeight`` rows, whose source (in short pieces of many rows, which the hardware
    /// prefetcher does not foresee) and turned place (a few bytes of each of the band's rows)
    /// are asked for a block ahead, and the turned block is written into the cache, not past it.
    func convertStrips(_ source: SourcePlanes, cropRows: Range<Int>, columns: Range<Int>, into output: Output,
                       keepingInCache: Bool = false) throws(ImagingError) {
        let width = columns.count
        let stripHeight = keepingInCache ? blockHeight : stripHeight
        let lead = lead(strips: stripHeight)
        let strip = rotation == 0 ? nil : try PlanarImage(size: PixelSize(width: width, height: stripHeight))
        // Formats libyuv cannot read directly are first made RGB here, a strip at a time.
        let scratch = source.needsScratch ? UnsafeMutableRawBufferPointer.allocate(byteCount: width * 4 * stripHeight, alignment: 64) : nil
        defer { scratch?.deallocate() }
        // Where a strip of the (flipped) crop starting at `row` comes from in the frame.
        func firstSourceRow(_ row: Int) -> Int { flipsVertically ? rect.y + rect.size.height - 1 - row : rect.y + row }
        var row = cropRows.lowerBound
        while row < cropRows.upperBound {
            let rows = min(cropRows.upperBound - row, row == 0 && lead > 0 ? lead : stripHeight)
            if keepingInCache, row + rows < cropRows.upperBound {
                let next = row + rows, nextRows = min(stripHeight, cropRows.upperBound - row - rows)
                source.prefetch(startingAt: firstSourceRow(next), upward: flipsVertically, x: rect.x + columns.lowerBound,
                                width: width, rows: nextRows)
                prefetchPlace(rows: nextRows, firstRow: next, columns: columns, in: output)
            }
            let target = strip.map { Destination(image: $0, row: 0) } ?? Destination(image: output.image, row: row - output.firstRow)
            let expanded = try source.convertRows(startingAt: firstSourceRow(row), upward: flipsVertically,
                                                  x: rect.x + columns.lowerBound, width: width, rows: rows,
                                                  expandingRange: expandRange, into: target,
                                                  scratch: scratch?.baseAddress?.assumingMemoryBound(to: UInt8.self))
            if expandRange, !expanded { target.expandRange(width: width, rows: rows, format: frame.format) }
            if let strip { try place(strip: strip, rows: rows, firstRow: row, columns: columns, into: output, keepingInCache: keepingInCache) }
            row += rows
        }
    }

    /// Where ``place(strip:rows:firstRow:columns:into:keepingInCache:)`` puts `rows` rows of the
    /// (flipped) crop from `firstRow`, columns `columns`: the turned block's top-left in the output.
    private func placement(rows: Int, firstRow: Int, columns: Range<Int>) -> (x: Int, y: Int) {
        let crop = rect.size
        switch rotation {
        case 1: return (crop.height - firstRow - rows, columns.lowerBound)                  // rows become columns from the right
        case 2: return (crop.width - columns.upperBound, crop.height - firstRow - rows)     // rows land at the bottom
        default: return (firstRow, crop.width - columns.upperBound)                         // rows become columns from the left
        }
    }

    /// Asks for the lines of `output` that a quarter-turned block (as ``placement(rows:firstRow:columns:)``
    /// says) will be written to, ahead of writing them: `columns.count` rows of `rows` bytes.
    private func prefetchPlace(rows: Int, firstRow: Int, columns: Range<Int>, in output: Output) {
        let (x, placed) = placement(rows: rows, firstRow: firstRow, columns: columns)
        let image = output.image, y = placed - output.firstRow, planes = image.planes, chromaOffset = y / 2 * image.chromaStride + x / 2
        let chromaRows = Int32((columns.count + 1) / 2), chromaBytes = (rows + 1) / 2
        pc_prefetch_rows(planes.y + y * image.lumaStride + x, image.lumaStride, Int32(columns.count), rows, 1)
        pc_prefetch_rows(planes.cb + chromaOffset, image.chromaStride, chromaRows, chromaBytes, 1)
        pc_prefetch_rows(planes.cr + chromaOffset, image.chromaStride, chromaRows, chromaBytes, 1)
    }

    /// Turns the first `rows` rows of `strip` (rows `firstRow...`, columns `columns` of the
    /// flipped crop) into their place in `output`.
    private func place(strip: PlanarImage, rows: Int, firstRow: Int, columns: Range<Int>, into output: Output,
                       keepingInCache: Bool) throws(ImagingError) {
        let (x, y) = placement(rows: rows, firstRow: firstRow, columns: columns)
        try strip.rotate(rows: rows, quarterTurns: rotation, into: output.image, x: x, y: y - output.firstRow,
                         keepingInCache: keepingInCache)
    }
}
