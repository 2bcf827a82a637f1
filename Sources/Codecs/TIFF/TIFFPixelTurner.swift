import CTIFF
import Imaging

/// Turns the picture of a TIFF file (its first directory) upright in its own kind: the same bit
/// depth, samples, photometric interpretation, compression, predictor and byte order, written
/// back into the same file.
///
/// The strips are decoded with libtiff into the stored picture, in its own kind; libtiff codes
/// the turned rows, gathered from it a band at a time, into a scratch file with the original's
/// coding tags, and their coded bytes are put where the old strips were (or appended when they
/// no longer fit). Then only the entries a turn changes are edited
/// (``TIFFDirectoryEditor``): ImageWidth, ImageLength, RowsPerStrip, StripOffsets,
/// StripByteCounts, Orientation 1, XResolution/YResolution swapped for quarter turns, the EXIF
/// PixelX/YDimension, and XMP's `tiff:Orientation`. Every other byte stays: text tags, dates,
/// EXIF and GPS directories, ICC, IPTC, XMP, other pages.
///
/// Refused with a specific reason: tiles, separate colour planes, JPEG compression, YCbCr,
/// and georeferenced files (GeoTIFF tie points refer to raster positions a turn would move).
package enum TIFFPixelTurner {
    /// Rows of the turned picture gathered at a time: a few MB at 16384 pixels of RGB.
    static let bandRows = 64
    /// libtiff's buffer of coded bytes, written out when full; by default a whole strip's worth.
    static let codedBufferBytes = 1 << 20

    /// The upright file and its size, and why its XMP packet was kept with its old
    /// `tiff:Orientation` (``XMPOrientation/unreadable(_:)``) when it was; nil when the file's
    /// Orientation is already 1 (or absent).
    package static func upright(_ data: [UInt8]) throws(CodecError)
        -> (bytes: [UInt8], size: PixelSize, orientation: Orientation, xmpKept: CodecError?)? {
        let scratch = TIFFStream()
        guard let turned = try upright(head: data, holes: [], source: TIFFStream(bytes: data), scratch: scratch) else { return nil }
        let bytes = turned.assembled(original: data, scratch: scratch.bytes)
        try checkDirectoryChain(bytes, "the turned file would not be readable")
        return (bytes, turned.size, turned.orientation, turned.xmpKept)
    }

    /// The upright form of the TIFF file `descriptor` read as `file` (``SparseTIFF``), as pieces
    /// to write (``TurnedTIFF``): its strips are decoded from the file as they are needed and
    /// never held, and the turned strips are coded into `scratch`, an empty file open for
    /// reading and writing. nil when the file's Orientation is already 1 (or absent).
    package static func upright(_ file: SparseTIFF, descriptor: Int32, scratch: Int32) throws(CodecError) -> TurnedTIFF? {
        try upright(head: file.head, holes: file.holes, source: TIFFStream(descriptor: descriptor, size: file.head.count),
                    scratch: TIFFStream(writingTo: scratch))
    }

    /// The turn of a file whose bytes are `head` except `holes` (the first directory's strips,
    /// not read; none when `head` is the whole file), its strips read from `source`, the turned
    /// ones coded into `scratch`.
    private static func upright(head: [UInt8], holes: [Range<Int>], source: TIFFStream, scratch: TIFFStream)
        throws(CodecError) -> TurnedTIFF? {
        guard let header = TIFFHeader(head) else {
            throw .corruptFile(format: "TIFF", reason: "no classic TIFF header (\"II*\\0\" or \"MM\\0*\")")
        }
        var editor = try TIFFDirectoryEditor(head, directoryAt: header.firstIFDOffset)
        let orientation = Orientation(exifValue: editor.integers(Tag.orientation)?.first ?? 1)
        guard orientation != .up else { return nil }
        // Everything but the turned entries is carried over as it is: damage would be too.
        try checkDirectoryChain(head, "the file is damaged")
        let layout = try Layout(editor, holdsFile: holes.isEmpty)
        if !holes.isEmpty, SparseTIFF.merged(layout.strips.map { $0.offset..<($0.offset + $0.length) }) != holes {
            throw .corruptFile(format: "TIFF", reason: "IFD0's strip tables do not read the same twice")
        }
        let size = orientation.apply(to: layout.size)
        // The stored picture lives only while its turned strips are coded from it.
        let strips = try encodeStrips(try Picture(source, layout, turnedBy: orientation), size: size, layout, from: editor,
                                      into: scratch, littleEndian: header.isLittleEndian)

        try editor.setIntegers(Tag.width, [size.width])
        try editor.setIntegers(Tag.height, [size.height])
        try editor.setIntegers(Tag.orientation, [1])
        if orientation.swapsDimensions { try editor.swapValues(Tag.xResolution, Tag.yResolution) }
        var xmpKept: CodecError?
        if let xmp = editor.entry(Tag.xmp), let packet = editor.valueBytes(Tag.xmp) {
            if let upright = XMPOrientation.upright(bytes: packet) {
                try editor.setValues(Tag.xmp, type: xmp.type, count: upright.count, upright)
            } else {
                xmpKept = XMPOrientation.unreadable(packet)
            }
        }
        // Last: strips appended at the end go after whatever the edits above appended.
        let placement = try place(strips.ranges, rowsPerStrip: strips.rowsPerStrip, replacing: layout, in: &editor)
        let hasEXIF = editor.entry(Tag.exifIFD) != nil
        var bytes = editor.takeBytes()
        // The EXIF directory's PixelX/YDimension, edited in place like a JPEG's.
        if hasEXIF { EXIFBlockEditor.markUpright(&bytes, pixelSize: size, uprightThumbnail: false) }
        if !holes.isEmpty { try checkDirectoryChain(bytes, "the turned file would not be readable") }
        return TurnedTIFF(head: bytes, pieces: placement.pieces(headCount: bytes.count, holes: holes),
                          size: size, orientation: orientation, xmpKept: xmpKept)
    }

    /// Refuses a file in which libtiff cannot read every directory of the chain (a next-IFD
    /// link into other data, a directory cut short) or IFD0's EXIF and GPS directories: readers
    /// such as ImageMagick read them all and reject the whole file.
    private static func checkDirectoryChain(_ bytes: [UInt8], _ problem: String) throws(CodecError) {
        let stream = TIFFStream(bytes: bytes)
        let file = try stream.open(mode: "rm")
        defer { file.close() }
        func refuse(_ directory: String) -> CodecError {
            .corruptFile(format: "TIFF", reason: "\(problem): \(stream.lastError) (\(directory)); it is left as it is")
        }
        var subdirectories: [(name: String, offset: UInt64)] = []
        for (tag, name) in [(TIFFTAG_EXIFIFD, "the EXIF directory"), (TIFFTAG_GPSIFD, "the GPS directory")] {
            var offset: UInt64 = 0
            if withUnsafeMutablePointer(to: &offset, { file.get(UInt32(tag), $0) }) { subdirectories.append((name, offset)) }
        }
        var directories = 1
        while stream.errors.isEmpty, libtiff.ReadDirectory(file.tiff) != 0 {
            directories += 1
            guard directories <= 65_536 else { break }  // libtiff stops at a loop of links itself
        }
        guard stream.errors.isEmpty else { throw refuse("directory \(directories + 1)") }
        for (name, offset) in subdirectories {
            let read = name == "the GPS directory" ? libtiff.ReadGPSDirectory(file.tiff, offset) : libtiff.ReadEXIFDirectory(file.tiff, offset)
            guard read != 0, stream.errors.isEmpty else { throw refuse("\(name) at byte \(offset)") }
        }
    }

    /// Tags read or edited here.
    enum Tag {
        static let width = 256, height = 257, bitsPerSample = 258, compression = 259, photometric = 262, fillOrder = 266
        static let stripOffsets = 273, orientation = 274, samplesPerPixel = 277, rowsPerStrip = 278, stripByteCounts = 279
        static let xResolution = 282, yResolution = 283, planarConfiguration = 284, t4Options = 292, t6Options = 293
        static let predictor = 317, colorMap = 320, tileWidth = 322, extraSamples = 338, sampleFormat = 339
        static let xmp = 700, exifIFD = 34665
        static let geoTIFF = [33550, 33922, 34264]  // ModelPixelScale, ModelTiepoint, ModelTransformation
    }

    /// What the strips hold and how.
    struct Layout {
        let size: PixelSize
        let bitsPerSample: Int
        let samplesPerPixel: Int
        let compression: Int
        let strips: [(offset: Int, length: Int)]
        var bitsPerPixel: Int { bitsPerSample * samplesPerPixel }
        func rowBytes(width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }

        /// `holdsFile`: the whole file is in memory (not read from its descriptor as needed).
        init(_ editor: TIFFDirectoryEditor, holdsFile: Bool) throws(CodecError) {
            guard let width = editor.integers(Tag.width)?.first, let height = editor.integers(Tag.height)?.first, width > 0, height > 0 else {
                throw .corruptFile(format: "TIFF", reason: "no image width or height in IFD0")
            }
            size = PixelSize(width: width, height: height)
            let bits = editor.integers(Tag.bitsPerSample) ?? [1]
            samplesPerPixel = editor.integers(Tag.samplesPerPixel)?.first ?? 1
            compression = editor.integers(Tag.compression)?.first ?? 1
            let photometric = editor.integers(Tag.photometric)?.first
            func refuse(_ what: String) -> CodecError { .unsupportedFormat(reason: "\(what): turning it is not supported; the file is left as it is") }
            if editor.entry(Tag.tileWidth) != nil { throw refuse("a tiled TIFF") }
            if (editor.integers(Tag.planarConfiguration)?.first ?? 1) != 1 { throw refuse("a TIFF with separate colour planes") }
            if [6, 7, 34892].contains(compression) { throw refuse("a JPEG-compressed TIFF") }
            if photometric == 6 { throw refuse("a YCbCr TIFF") }
            // libtiff ignores a PhotometricInterpretation of another type or count and decodes;
            // the result would carry the damage, which ImageMagick refuses.
            guard let entry = editor.entry(Tag.photometric), entry.type == 3, entry.count == 1 else {
                throw .corruptFile(format: "TIFF", reason: "IFD0's PhotometricInterpretation is missing or damaged; the file is left as it is")
            }
            if Tag.geoTIFF.contains(where: { editor.entry($0) != nil }) {
                throw refuse("a georeferenced TIFF (its GeoTIFF tie points refer to pixel positions a turn moves)")
            }
            guard let first = bits.first, bits.allSatisfy({ $0 == first }), [1, 2, 4, 8, 16, 32, 64].contains(first), samplesPerPixel >= 1 else {
                throw refuse("a TIFF with \(bits) bits per sample")
            }
            bitsPerSample = first
            guard (first * samplesPerPixel) % 8 == 0 || first * samplesPerPixel <= 32 else {
                throw refuse("a TIFF with \(first * samplesPerPixel)-bit pixels")
            }
            guard let offsets = editor.integers(Tag.stripOffsets), let lengths = editor.integers(Tag.stripByteCounts),
                  offsets.count == lengths.count, !offsets.isEmpty else {
                throw .corruptFile(format: "TIFF", reason: "no strips (StripOffsets and StripByteCounts)")
            }
            strips = zip(offsets, lengths).map { ($0, $1) }
            if let outside = strips.firstIndex(where: { $0.offset < 8 || $0.offset + $0.length > editor.bytes.count }) {
                throw .corruptFile(format: "TIFF", reason: "strip \(outside) lies outside the file")
            }
            try TIFFPixelTurner.checkNoOverlap(strips, editor.structures)
            try PixelBudget.check(size, declaredBy: "TIFF")
            // What the turn holds at once, past the budget's figure for a picture in 8-bit RGB:
            // the stored picture, and from memory the file and its strips coded again (about as
            // long as the file's), so a 16-bit TIFF that cannot fit is refused here, not killed
            // part way.
            let coded = holdsFile ? editor.bytes.count + strips.reduce(0) { $0 + $1.length } : 0
            let held = coded + size.height * rowBytes(width: size.width)
            try PixelBudget.check(size, declaredBy: "TIFF", holding: (held + size.area - 1) / size.area)
        }
    }

    /// Refuses strips that share bytes with each other or with a structure of the file: the
    /// turned strips are written where the old ones were, so an overlap would overwrite the
    /// directory or the metadata that is read again afterwards.
    fileprivate static func checkNoOverlap(_ strips: [(offset: Int, length: Int)],
                                       _ structures: [(name: String, range: Range<Int>)]) throws(CodecError) {
        let named = strips.enumerated().map { (name: "strip \($0.offset)", range: $0.element.offset..<($0.element.offset + $0.element.length)) }
        for (index, strip) in named.enumerated() where !strip.range.isEmpty {
            if let other = (structures + named[..<index]).first(where: { $0.range.overlaps(strip.range) }) {
                let bytes = "bytes \(strip.range.lowerBound)..<\(strip.range.upperBound)"
                throw .corruptFile(format: "TIFF", reason: "\(strip.name) (\(bytes)) overlaps \(other.name)")
            }
        }
    }

    /// The picture as libtiff decoded it, from which the rows of the turned picture are
    /// gathered as they are coded: no turned copy of the whole picture is made. Whole pixels are
    /// kept as stored, each strip decoded straight into its place; sub-byte pixels, a few bits
    /// each, are decoded whole, turned and packed again, and their rows then taken as they are.
    struct Picture {
        /// Packed rows (each row starting on a byte).
        private let rows: [UInt8]
        /// Bytes a pixel of ``rows``; 0 when its rows are the turned picture's already.
        private let bytesPerPixel: Int
        /// Bytes a row of ``rows``.
        private let rowBytes: Int
        /// Where the turned picture's pixel (x, y) is in ``rows``: pixel `origin + x · dx + y · dy`.
        private let map: (origin: Int, dx: Int, dy: Int)

        init(_ source: TIFFStream, _ layout: Layout, turnedBy orientation: Orientation) throws(CodecError) {
            let stored = try TIFFPixelTurner.decodeRows(source, layout)
            let bits = layout.bitsPerPixel
            if bits % 8 == 0 {
                (rows, bytesPerPixel, rowBytes) = (stored, bits / 8, layout.rowBytes(width: layout.size.width))
                // The inverse turn sends the turned picture's pixels back to where they are stored.
                map = orientation.inverse.linearMap(of: orientation.apply(to: layout.size))
            } else {
                rows = TIFFPixelTurner.turn(stored, layout, by: orientation)
                (bytesPerPixel, rowBytes, map) = (0, layout.rowBytes(width: orientation.apply(to: layout.size).width), (0, 0, 0))
            }
        }

        /// Writes rows `range` of the turned picture, `rowBytes` bytes each, into `band`, row
        /// after row. Column by column within the band: for a quarter turn, a column of the band
        /// is a run of one stored row, read in order.
        func gather(rows range: Range<Int>, rowBytes bandRowBytes: Int, into band: UnsafeMutableRawBufferPointer) {
            rows.withUnsafeBytes { source in
                guard bytesPerPixel > 0 else {
                    let bytes = range.count * rowBytes
                    band.baseAddress!.copyMemory(from: source.baseAddress! + range.lowerBound * rowBytes, byteCount: bytes)
                    return
                }
                let pixel = bytesPerPixel, width = bandRowBytes / pixel
                for x in 0..<width {
                    var from = (map.origin + x * map.dx + range.lowerBound * map.dy) * pixel
                    var to = x * pixel
                    for _ in range {
                        (band.baseAddress! + to).copyMemory(from: source.baseAddress! + from, byteCount: pixel)
                        from += map.dy * pixel
                        to += bandRowBytes
                    }
                }
            }
        }
    }

    /// The picture's rows, packed (each row starting on a byte), decoded by libtiff a row at a
    /// time straight into their place: from a file's descriptor, only a few rows' coded bytes
    /// are held at once, whatever the strips' size.
    private static func decodeRows(_ source: TIFFStream, _ layout: Layout) throws(CodecError) -> [UInt8] {
        let file = try source.open(mode: "r")
        defer { file.close() }
        let rowBytes = layout.rowBytes(width: layout.size.width)
        guard Int(libtiff.ScanlineSize64(file.tiff)) == rowBytes else {
            throw .tiff(function: "TIFFScanlineSize64", message: "rows of \(libtiff.ScanlineSize64(file.tiff)) bytes, expected \(rowBytes)")
        }
        var rowsPerStrip: UInt32 = 0
        if !withUnsafeMutablePointer(to: &rowsPerStrip, { file.get(UInt32(TIFFTAG_ROWSPERSTRIP), $0) }) || rowsPerStrip == 0 {
            rowsPerStrip = UInt32(layout.size.height)
        }
        let height = layout.size.height
        let strips = Int(libtiff.NumberOfStrips(file.tiff))
        guard strips * Int(rowsPerStrip) >= height else {
            throw .corruptFile(format: "TIFF", reason: "\(strips) strips of \(rowsPerStrip) rows hold fewer than its \(height) rows")
        }
        // Not zeroed first: every row is decoded into its place or the read fails, and a file
        // that declares more than it holds fails having touched only the pages decoded.
        var failure: CodecError?
        let rows = [UInt8](unsafeUninitializedCapacity: height * rowBytes) { target, initialized in
            initialized = 0
            for row in 0..<height {
                guard libtiff.ReadScanline(file.tiff, target.baseAddress! + row * rowBytes, UInt32(row), 0) == 1 else {
                    failure = .tiff(function: "TIFFReadScanline", message: file.stream.lastError)
                    return
                }
                if row % TIFFRowReader.releaseRows == TIFFRowReader.releaseRows - 1 { source.releaseMappedPages() }
            }
            initialized = target.count
        }
        if let failure { throw failure }
        return rows
    }

    /// The rows turned by `orientation`; sub-byte pixels are unpacked, turned and packed again.
    private static func turn(_ rows: [UInt8], _ layout: Layout, by orientation: Orientation) -> [UInt8] {
        let bits = layout.bitsPerPixel
        if bits % 8 == 0 { return orientation.apply(toPixels: rows, of: layout.size, bytesPerPixel: bits / 8) }
        let size = layout.size, rowBytes = layout.rowBytes(width: size.width)
        var unpacked = [UInt8](repeating: 0, count: size.area * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let value = readBits(rows, at: y * rowBytes * 8 + x * bits, count: bits)
                for byte in 0..<4 { unpacked[(y * size.width + x) * 4 + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
            }
        }
        let turned = orientation.apply(toPixels: unpacked, of: size, bytesPerPixel: 4)
        let output = orientation.apply(to: size), outputRowBytes = layout.rowBytes(width: output.width)
        var packed = [UInt8](repeating: 0, count: outputRowBytes * output.height)
        for y in 0..<output.height {
            for x in 0..<output.width {
                let index = (y * output.width + x) * 4
                let value = (0..<4).reduce(0) { $0 | Int(turned[index + $1]) << (8 * $1) }
                writeBits(value, into: &packed, at: y * outputRowBytes * 8 + x * bits, count: bits)
            }
        }
        return packed
    }

    /// `count` bits from bit `offset` (most significant bit first, as TIFF packs them).
    private static func readBits(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        var value = 0
        for bit in offset..<(offset + count) { value = value << 1 | Int(bytes[bit / 8] >> (7 - bit % 8) & 1) }
        return value
    }

    private static func writeBits(_ value: Int, into bytes: inout [UInt8], at offset: Int, count: Int) {
        for index in 0..<count where value >> (count - 1 - index) & 1 == 1 {
            let bit = offset + index
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
        }
    }

    /// The turned rows, gathered from `picture` a band at a time, coded as the original's strips
    /// were by libtiff a row at a time (through a small buffer of coded bytes, not a whole strip's
    /// worth) into `stream`, a scratch file with the same coding tags; no more strips than the
    /// original had, so their tables fit. Returns where the coded strips are in it.
    private static func encodeStrips(_ picture: Picture, size: PixelSize, _ layout: Layout, from editor: TIFFDirectoryEditor,
                                     into stream: TIFFStream, littleEndian: Bool) throws(CodecError)
        -> (ranges: [Range<Int>], rowsPerStrip: Int) {
        // In memory: room for the strips as the original coded them, and the directory with its
        // strip tables (an offset and a count, 8 bytes at most each, a strip): grown by
        // doubling instead, a picture's worth would be held twice while it is copied.
        stream.bytes.reserveCapacity(layout.strips.reduce(65_536 + 16 * layout.strips.count) { $0 + $1.length })
        let file = try stream.open(mode: littleEndian ? "wl" : "wb")
        let rowsPerStrip = (size.height + layout.strips.count - 1) / layout.strips.count
        try file.set(UInt32(TIFFTAG_IMAGEWIDTH), UInt32(size.width))
        try file.set(UInt32(TIFFTAG_IMAGELENGTH), UInt32(size.height))
        try file.set(UInt32(TIFFTAG_BITSPERSAMPLE), Int32(layout.bitsPerSample))
        try file.set(UInt32(TIFFTAG_SAMPLESPERPIXEL), Int32(layout.samplesPerPixel))
        try file.set(UInt32(TIFFTAG_PLANARCONFIG), Int32(PLANARCONFIG_CONTIG))
        try file.set(UInt32(TIFFTAG_ROWSPERSTRIP), UInt32(rowsPerStrip))
        try file.set(UInt32(TIFFTAG_PHOTOMETRIC), Int32(editor.integers(Tag.photometric)?.first ?? 1))
        try file.set(UInt32(TIFFTAG_COMPRESSION), Int32(layout.compression))
        for tag in [Tag.fillOrder, Tag.predictor, Tag.sampleFormat] {
            if let value = editor.integers(tag)?.first { try file.set(UInt32(tag), Int32(value)) }
        }
        for tag in [Tag.t4Options, Tag.t6Options] {
            if let value = editor.integers(tag)?.first { try file.set(UInt32(tag), UInt32(value)) }
        }
        if let extra = editor.integers(Tag.extraSamples) { try file.setCounted(Int32(Tag.extraSamples), extra.map(UInt16.init)) }
        if let map = editor.integers(Tag.colorMap), map.count == 3 << layout.bitsPerSample {
            let third = map.count / 3
            var (red, green, blue) = (map[..<third].map(UInt16.init), map[third..<(2 * third)].map(UInt16.init), map[(2 * third)...].map(UInt16.init))
            let ok = red.withUnsafeMutableBufferPointer { red in
                green.withUnsafeMutableBufferPointer { green in
                    blue.withUnsafeMutableBufferPointer { blue in
                        file.setField(UInt32(TIFFTAG_COLORMAP), [red.baseAddress!, green.baseAddress!, blue.baseAddress!])
                    }
                }
            }
            try file.check(ok, tag: UInt32(TIFFTAG_COLORMAP))
        }
        try file.check(libtiff.WriteBufferSetup(file.tiff, nil, tmsize_t(codedBufferBytes)), "TIFFWriteBufferSetup")
        let rowBytes = layout.rowBytes(width: size.width)
        // libtiff's encoders may change the rows they are given (predictor, byte swapping).
        let band = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, rowBytes * bandRows), alignment: 64)
        defer { band.deallocate() }
        for firstRow in stride(from: 0, to: size.height, by: bandRows) {
            let rows = firstRow..<min(size.height, firstRow + bandRows)
            picture.gather(rows: rows, rowBytes: rowBytes, into: band)
            for row in rows {
                guard libtiff.WriteScanline(file.tiff, band.baseAddress! + (row - firstRow) * rowBytes, UInt32(row), 0) == 1 else {
                    throw .tiff(function: "TIFFWriteScanline", message: stream.lastError)
                }
            }
        }
        try file.check(libtiff.WriteDirectory(file.tiff), "TIFFWriteDirectory")
        file.close()
        guard stream.errors.isEmpty else { throw .tiff(function: "TIFFClose", message: stream.lastError) }
        // The strips stay in the scratch file, copied from there into the result: copied out,
        // they would be a second coded picture beside it.
        let written = try stream.reopened().open(mode: "rc")  // its strips as written, not chopped
        defer { written.close() }
        let count = Int(libtiff.NumberOfStrips(written.tiff))
        let ranges = (0..<count).map { index in
            let offset = Int(libtiff.GetStrileOffset(written.tiff, UInt32(index)))
            return offset..<(offset + Int(libtiff.GetStrileByteCount(written.tiff, UInt32(index))))
        }
        guard count == (size.height + rowsPerStrip - 1) / rowsPerStrip, written.stream.errors.isEmpty,
              ranges.allSatisfy({ $0.lowerBound >= 8 && $0.upperBound <= written.stream.size }) else {
            throw .tiff(function: "TIFFWriteDirectory", message: "the re-coded strips cannot be found")
        }
        return (ranges, rowsPerStrip)
    }

    /// Where the new strips (`ranges` of the scratch file) go: where the old ones were when
    /// those were contiguous and they fit (the rest zeroed), else at the end of the file; the
    /// strip tables are pointed at them. The strips themselves are not copied into the
    /// editor's bytes: ``TurnedTIFF`` writes them from the scratch file.
    private static func place(_ ranges: [Range<Int>], rowsPerStrip: Int, replacing layout: Layout,
                              in editor: inout TIFFDirectoryEditor) throws(CodecError) -> TurnedTIFF.Placement {
        let old = layout.strips.sorted { $0.offset < $1.offset }
        var contiguous = true
        for (previous, next) in zip(old, old.dropFirst()) where next.offset - (previous.offset + previous.length) > 1 {
            contiguous = false  // something else may live between them
        }
        let region = old.first!.offset..<(old.last!.offset + old.last!.length)
        let total = ranges.reduce(0) { $0 + $1.count + $1.count % 2 }
        // The strip tables may outgrow their slots (LONGs for SHORTs), appended word-aligned.
        editor.reserve(extra: 2 * (4 * ranges.count + 2))
        let placement: TurnedTIFF.Placement
        if contiguous, total <= region.count {
            placement = .replacing(region, ranges)
            try editor.setIntegers(Tag.stripOffsets, placement.offsets(headCount: editor.bytes.count))
        } else {
            if contiguous, region.upperBound >= editor.bytes.count - 1 { editor.truncate(at: region.lowerBound) }
            // LONG placeholders first, so that a table appended now is not moved by the strips.
            try editor.setIntegers(Tag.stripOffsets, [Int](repeating: Int(UInt32.max), count: ranges.count))
            placement = .appending(ranges)
        }
        try editor.setIntegers(Tag.stripByteCounts, ranges.map(\.count))
        if editor.entry(Tag.rowsPerStrip) != nil {
            try editor.setIntegers(Tag.rowsPerStrip, [rowsPerStrip])
        } else if ranges.count > 1 {
            throw .corruptFile(format: "TIFF", reason: "several strips but no RowsPerStrip")
        }
        if case .appending = placement {
            let offsets = placement.offsets(headCount: editor.bytes.count)
            guard let end = offsets.last.map({ $0 + ranges.last!.count }), end <= Int(UInt32.max) else {
                throw .invalidArgument("the TIFF file would pass 4 GiB")
            }
            try editor.setIntegers(Tag.stripOffsets, offsets)
        }
        return placement
    }
}
