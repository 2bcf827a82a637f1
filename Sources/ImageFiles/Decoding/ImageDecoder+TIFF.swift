import Codecs
#if canImport(Glibc)
import Glibc
#endif
import Imaging

extension ImageDecoder {
    /// The TIFF at `path` decoded from its descriptor a row at a time as libtiff reads its
    /// parts, into the picture as shown (or as stored, without ``appliesOrientation``): the file
    /// is never held whole beside the picture, which at 16384×16384 would double the memory.
    /// Nil when the file is not a TIFF, or is a DNG, for the whole-file decode to take.
    package func decodeTIFF(fileAt path: String) throws(ImageDecodingError) -> DecodedImage? {
        let (descriptor, fileSize): (Int32, Int)
        do { (descriptor, fileSize) = try InputFile.openRegular(path) } catch { throw ImageDecodingError(.unreadable(error), name: path) }
        defer { close(descriptor) }
        var orientation = Orientation.up
        var bands: RowBands?
        var turn: RowBands.Turn?
        var picture = RGBImage(size: PixelSize(width: 0, height: 0), pixels: [])
        let read: (size: PixelSize, orientation: Orientation)?
        do {
            read = try TIFFFile.readRows(descriptor: descriptor, fileSize: fileSize, check: { size, fileOrientation throws(CodecError) in
                let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
                guard !overflow, pixels <= maximumPixelCount else {
                    throw .pixelBudgetExceeded(format: "TIFF", size: size, limit: maximumPixelCount)
                }
                orientation = appliesOrientation ? fileOrientation : .up
            }) { size, y, row in
                if y == 0 {
                    // Turned a band at a time as decoded: a turned copy of the whole picture
                    // would double the memory it takes.
                    if orientation != .up { (bands, turn) = (RowBands(size: size), RowBands.Turn(size: size, orientation: orientation)) }
                    picture = RGBImage(size: orientation.apply(to: size), pixels: [UInt8](repeating: 0, count: size.area * 3))
                }
                if let turn {
                    bands!.add(row) { band in turn.place(band, in: &picture) }
                } else {
                    picture.pixels.withUnsafeMutableBufferPointer { ($0.baseAddress! + y * row.count).update(from: row.baseAddress!, count: row.count) }
                }
            }
        } catch {
            throw ImageDecodingError(codecError: error, name: path)
        }
        guard let read else { return nil }
        return DecodedImage(format: .tiff, image: picture, fileOrientation: read.orientation, isOriented: appliesOrientation)
    }

    /// The `Orientation` tag of the TIFF at `path` (IFD0's; absent → `.up`), read without its
    /// pixels, so that its rows can be placed as shown before the first is read. Nil when the
    /// file is not a TIFF, or is a DNG, which ``decodeRows(ofFileAt:_:)`` does not read.
    package func tiffOrientation(ofFileAt path: String) throws(ImageDecodingError) -> Orientation? {
        let (descriptor, fileSize): (Int32, Int)
        do { (descriptor, fileSize) = try InputFile.openRegular(path) } catch { throw ImageDecodingError(.unreadable(error), name: path) }
        defer { close(descriptor) }
        do {
            return try TIFFRowReader(descriptor: descriptor, fileSize: fileSize, check: { _, _ throws(CodecError) in })?.orientation
        } catch {
            throw ImageDecodingError(codecError: error, name: path)
        }
    }
}
