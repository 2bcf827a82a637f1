import Imaging
import PhotoCapture

/// A golden file compared with a picture in memory a band of rows at a time, as it is decoded,
/// so that a comparison holds one picture, not two (a 16384×16384 picture is 805 MB of RGB).
///
/// Read this way: PNG, JPEG and TIFF files whose rows decode to the bytes a whole decode gives
/// (``ImageDecoder/decodeRows(of:name:_:)``), shown with their own orientation (a JPEG's EXIF
/// `Orientation`, a TIFF's IFD0 tag) as
/// ``DisplayedImage`` shows them. Other files are nil, for the caller to decode whole.
package struct GoldenRows {
    /// What errors call the file.
    package let path: String
    /// The file's bytes; nil for a PNG or a TIFF, read from the file on each pass (never held
    /// whole).
    private let data: [UInt8]?
    /// The file's own orientation, which a viewer applies.
    private let orientation: Orientation
    /// The first bytes of every PNG file.
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The golden at `path`; nil when it is not a file read by rows.
    package init?(fileAt path: String) throws(GoldenImageError) {
        let signature: [UInt8]
        do { signature = try InputFile.prefix(of: path, count: Self.pngSignature.count) } catch {
            throw GoldenImageError(.unreadable(error), path: path)
        }
        if signature == Self.pngSignature {
            (self.path, self.data, self.orientation) = (path, nil, .up)
            return
        }
        if signature.starts(with: Array("II*\0".utf8)) || signature.starts(with: Array("MM\0*".utf8)) {
            // Its orientation from IFD0 alone: the mappings of the shown picture are made before
            // the first row.
            let orientation: Orientation?
            do { orientation = try ImageDecoder().tiffOrientation(ofFileAt: path) } catch { throw Self.failure(error) }
            guard let orientation else { return nil }  // a DNG: RAW data, its decode refuses it
            (self.path, self.data, self.orientation) = (path, nil, orientation)
            return
        }
        let data = try DisplayedImage.contents(of: path)
        if data.starts(with: [0xFF, 0xD8]) {
            let info: ImageFileInfo
            do { info = try ImageFileInfo(data: data) } catch { throw GoldenImageError(.undecodable(error), path: path) }
            orientation = info.orientation
        } else {
            return nil
        }
        (self.path, self.data) = (path, data)
    }

    /// The picture of the file at `path` compared with the golden at `goldenPath` row for row,
    /// neither decoded whole, when both are PNG, JPEG or TIFF files read by rows (``RGBRowSource``),
    /// shown as stored (no orientation to apply) and of one size, and they match within
    /// `tolerance`; nil otherwise, for the caller to decode the picture whole (a mismatch asks
    /// whether a turn explains it, which needs it whole). A progressive JPEG then holds its
    /// coefficients but not its picture beside them.
    package static func compareRowForRow(fileAt path: String, goldenAt goldenPath: String,
                                         tolerance: GoldenTolerance) throws(GoldenImageError) -> ImageComparison? {
        var sums = DifferenceSums()
        let size: PixelSize?
        do {
            size = try ImageDecoder().decodeRowPairs(ofFileAt: path, andFileAt: goldenPath) { row, golden in
                sums.add(row.baseAddress!, golden.baseAddress!, count: row.count)
            }
        } catch {
            throw failure(error)
        }
        guard let size else { return nil }
        let comparison = ImageComparison(actualSize: size, goldenSize: size, statistics: sums.statistics,
                                         tolerance: tolerance) { [:] }
        return comparison.verdict == .match ? comparison : nil
    }

    /// `error` as a golden's: unreadable, or undecodable, naming the file it is about.
    private static func failure(_ error: ImageDecodingError) -> GoldenImageError {
        if case .unreadable(let reason) = error.code { return GoldenImageError(.unreadable(reason), path: error.name) }
        return GoldenImageError(.undecodable(error.codecError), path: error.name)
    }

    /// `actual` compared with the golden as a viewer shows it, judged against `tolerance`;
    /// nil when the file's rows cannot be read exactly (then decode it whole). A picture that
    /// does not match reads the golden again, once, to see whether a turn explains it.
    package func compare(_ actual: RGBImage, tolerance: GoldenTolerance) throws(GoldenImageError) -> ImageComparison? {
        guard let (stored, sums) = try differences(from: actual, turns: { shown in shown == actual.size ? [.up] : [] }) else {
            return nil
        }
        let shown = orientation.apply(to: stored)
        return try ImageComparison(actualSize: actual.size, goldenSize: shown, statistics: sums[.up]?.statistics,
                                   tolerance: tolerance) { () throws(GoldenImageError) -> [Orientation: Double] in
            let fitting = { (shown: PixelSize) in Orientation.allCases.filter { $0.apply(to: shown) == actual.size } }
            return try differences(from: actual, turns: fitting)?.sums.mapValues(\.statistics.mean) ?? [:]
        }
    }

    /// The sums of the differences between `actual` and the golden shown and then turned by
    /// each of the turns `turns` picks for the shown size, with the stored size; nil when the
    /// file is not read by rows.
    private func differences(from actual: RGBImage, turns: (PixelSize) -> [Orientation])
        throws(GoldenImageError) -> (stored: PixelSize, sums: [Orientation: DifferenceSums])? {
        var bands: RowBands?
        var mappings: [(Orientation, RowBands.Turn)] = []
        var sums: [Orientation: DifferenceSums] = [:]
        var scratch: [UInt8] = []
        let stored: PixelSize?
        do {
            stored = try decodeRows { size, _, row in
                if bands == nil {
                    bands = RowBands(size: size)
                    // The golden's stored pixels, shown (its orientation) and then turned.
                    mappings = turns(orientation.apply(to: size)).map { ($0, RowBands.Turn(size: size, orientation: orientation.followed(by: $0))) }
                }
                bands!.add(row) { band in
                    for (turn, mapping) in mappings {
                        mapping.addDifferences(of: band, against: actual, to: &sums[turn, default: DifferenceSums()], scratch: &scratch)
                    }
                }
            }
        } catch {
            throw GoldenImageError(.undecodable(error.codecError), path: path)
        }
        return stored.map { ($0, sums) }
    }

    /// Turns `actual` (the size of the golden as shown) into the picture of where it differs
    /// from the golden (``ImageComparison/differenceImage(actual:golden:)``), band by band;
    /// false, with `actual` unchanged, when the file is not read by rows.
    package func markDifferences(in actual: inout RGBImage) throws(GoldenImageError) -> Bool {
        var bands: RowBands?
        var mapping: RowBands.Turn?
        var scratch: [UInt8] = []
        do {
            return try decodeRows { size, _, row in
                if bands == nil {
                    (bands, mapping) = (RowBands(size: size), RowBands.Turn(size: size, orientation: orientation))
                    precondition(orientation.apply(to: size) == actual.size, "a difference image needs pictures of one size")
                }
                bands!.add(row) { band in mapping!.markDifferences(of: band, in: &actual, scratch: &scratch) }
            } != nil
        } catch {
            throw GoldenImageError(.undecodable(error.codecError), path: path)
        }
    }

    /// The golden's rows, from its bytes or, for a PNG or a TIFF, from the file.
    private func decodeRows(_ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void)
        throws(ImageDecodingError) -> PixelSize? {
        if let data { return try ImageDecoder().decodeRows(of: data, name: path, body) }
        return try ImageDecoder().decodeRows(ofFileAt: path, body)
    }
}
