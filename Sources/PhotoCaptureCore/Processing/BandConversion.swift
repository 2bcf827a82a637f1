import Codecs
import Imaging

/// The convert and reduce stages of a JPEG as the strip encode runs them: each strip's thread
/// converts a band of rows just before encoding it (in cache), and the EXIF thumbnail takes its
/// share of that band while it is still there.
struct BandConversion {
    /// The prepared conversion pass (format, crop, turn).
    let conversion: FrameConversion?
    /// The EXIF thumbnail, reduced band by band (only without a preview, which it would
    /// otherwise be scaled from).
    let thumbnail: BandedReduction?

    /// Converts `rows` of the photo into `target`, whose first row is `firstRow`: the photo's
    /// planes, or a band's buffer.
    func convert(_ rows: Range<Int>, into target: PlanarImage, firstRow: Int) throws(CodecError) {
        do throws(ImagingError) { try conversion?.convert(rows: rows, into: target, firstRow: firstRow) } catch { throw .imaging(error) }
        thumbnail?.add(rows: rows, of: target, firstRow: firstRow)
    }
}
