import Imaging

/// Where a TIFF's strips get their packed RGB rows as libtiff codes them: the photo's planes, or,
/// for a photo encoded from bands (``PhotoProcessor/encodesFromBands(_:framesAreFreeToKeep:)``),
/// its conversion, a band of rows at a time, so the planes are never made whole.
struct TIFFStripRows {
    let pixels: PixelBuffer
    /// The photo's conversion when its planes are deferred.
    let conversion: FrameConversion?
    /// The band the conversion writes, kept from strip to strip.
    private var band: PlanarImage?

    init(pixels: PixelBuffer, conversion: FrameConversion?) {
        (self.pixels, self.conversion) = (pixels, conversion)
    }

    /// Writes the photo's rows `rows` into `strip` as packed RGB, rows without padding.
    mutating func write(_ rows: Range<Int>, into strip: UnsafeMutableRawBufferPointer) throws(ImagingError) {
        guard let conversion else { return try pixels.image.rgbBytes(rows: rows, into: strip) }
        // A conversion starts on an even row (4:2:0 pairs rows): the band from the even row at or
        // above the strip's first, to an even row or the last.
        let first = rows.lowerBound & ~1, end = min(pixels.size.height, (rows.upperBound + 1) & ~1)
        if band == nil || band!.size.height < end - first {
            band = try PlanarImage(size: PixelSize(width: pixels.size.width, height: end - first))
        }
        try conversion.convert(rows: first..<end, into: band!, firstRow: first)
        try band!.rgbBytes(rows: (rows.lowerBound - first)..<(rows.upperBound - first), into: strip)
    }
}
