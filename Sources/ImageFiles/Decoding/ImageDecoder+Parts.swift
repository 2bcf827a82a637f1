import Codecs
import Imaging

extension ImageDecoder {
    /// Calls `body` with the picture's size and then with each of its rows of 8-bit RGB
    /// (`width × 3` bytes, valid during the call), top to bottom as stored — no orientation
    /// applied — so a large picture can be compared with another without holding both: a
    /// 16384×16384 picture is 805 MB of RGB, a row 48 KB. Returns the size.
    ///
    /// Only files whose rows are exactly the bytes ``decode(_:name:)`` gives are read this way:
    /// PNG without alpha, 16-bit samples, interlacing or a gamma other than sRGB's, JPEG in
    /// Y'CbCr, grey or RGB, and TIFF (not DNG). Any other file returns nil without a call:
    /// decode it whole. The
    /// size is checked against ``PixelBudget`` before anything is allocated.
    public func decodeRows(of bytes: [UInt8], name: String = "image data",
                           _ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void)
        throws(ImageDecodingError) -> PixelSize? {
        do { return try RGBRowReader.read(bytes, body) } catch { throw ImageDecodingError(codecError: error, name: name) }
    }

    /// ``decodeRows(of:name:_:)`` of the file at `path`; a PNG is read from the file a few
    /// hundred KiB at a time, a TIFF as libtiff asks for its parts, neither held whole.
    public func decodeRows(ofFileAt path: String,
                           _ body: (_ size: PixelSize, _ y: Int, _ row: UnsafeBufferPointer<UInt8>) -> Void)
        throws(ImageDecodingError) -> PixelSize? {
        do { return try RGBRowReader.read(fileAt: path, body) } catch { throw ImageDecodingError(codecError: error, name: path) }
    }

    /// Calls `body` with each row of the file at `path` beside the same row of the file at
    /// `otherPath` (8-bit RGB, `width × 3` bytes each, valid during the call), top to bottom,
    /// neither picture held whole; returns their size. Nil, without a call, unless both are PNG,
    /// JPEG or TIFF files read by rows (``decodeRows(of:name:_:)``), shown as stored (no
    /// orientation to apply: a JPEG's EXIF tag or a TIFF's IFD0 tag says, before any row is
    /// read) and of one size. A progressive JPEG holds its DCT coefficients meanwhile.
    package func decodeRowPairs(ofFileAt path: String, andFileAt otherPath: String,
                                _ body: (_ row: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Void)
        throws(ImageDecodingError) -> PixelSize? {
        func source(_ path: String) throws(ImageDecodingError) -> RGBRowSource? {
            do { return try RGBRowSource(fileAt: path) } catch { throw ImageDecodingError(codecError: error, name: path) }
        }
        func next(_ source: RGBRowSource, into row: inout [UInt8], _ path: String) throws(ImageDecodingError) {
            let read = row.withUnsafeMutableBufferPointer { row in Result { () throws(CodecError) in try source.next(into: row.baseAddress!) } }
            do { try read.get() } catch { throw ImageDecodingError(codecError: error, name: path) }
        }
        guard let first = try source(path), first.orientation == .up, let other = try source(otherPath), other.orientation == .up,
              first.size == other.size else { return nil }
        var (row, otherRow) = ([UInt8](repeating: 0, count: first.size.width * 3), [UInt8](repeating: 0, count: first.size.width * 3))
        for _ in 0..<first.size.height {
            try next(first, into: &row, path)
            try next(other, into: &otherRow, otherPath)
            row.withUnsafeBufferPointer { row in otherRow.withUnsafeBufferPointer { body(row, $0) } }
        }
        return first.size
    }

    /// The thumbnail embedded in the file — a JPEG's EXIF thumbnail (IFD1), a HEIF's thumbnail
    /// item — shown with its own orientation when ``appliesOrientation`` (IFD1's Orientation,
    /// else IFD0's, which then applies to the thumbnail too; the HEIF item's `irot`/`imir`),
    /// else as stored. Nil when the file has none; PNG, TIFF and DNG files are not searched.
    public func decodeThumbnail(bytes: [UInt8], name: String = "image data") throws(ImageDecodingError) -> RGBImage? {
        do {
            if Self.isHEIF(bytes) {
                return try HEICDecoder.decodeThumbnailRGB(bytes, applyingTransformations: appliesOrientation).map {
                    RGBImage(size: $0.size, pixels: $0.rgb)
                }
            }
            guard bytes.starts(with: [0xFF, 0xD8]), let block = try JPEGFile.exifBlock(in: bytes) else { return nil }
            let exif = try EXIFReader(data: block)
            guard let jpeg = exif.thumbnailJPEG else { return nil }
            let decoded = try JPEGDecoder().decodeRGB(jpeg)
            let stored = RGBImage(size: decoded.size, pixels: decoded.rgb)
            return appliesOrientation ? stored.transformed(by: exif.thumbnailOrientation ?? exif.orientation ?? .up) : stored
        } catch {
            throw ImageDecodingError(codecError: error, name: name)
        }
    }

    /// The picture of a DNG developed by LibRaw (demosaiced, white balance as shot, the
    /// camera's colour matrix to sRGB), turned by its Orientation tag when
    /// ``appliesOrientation``: what a RAW viewer shows. ``decode(_:name:)`` refuses DNG, whose
    /// pixels are sensor data; this is the picture a DNG stands for.
    public func develop(bytes: [UInt8], name: String = "DNG") throws(ImageDecodingError) -> DecodedImage {
        do {
            let developer = try RAWDeveloper(data: bytes)
            let image = try developer.develop(applyingOrientation: appliesOrientation)
            return DecodedImage(format: .dng, image: image, fileOrientation: developer.orientation, isOriented: appliesOrientation)
        } catch {
            throw ImageDecodingError(codecError: error, name: name)
        }
    }
}
