import Dispatch
import FoundationEssentials
import Imaging

// TurboJPEG 2.1 cannot set a restart interval through its API (only through the TJ_RESTART
// environment variable, process-wide) and the libjpeg API compresses one image from one thread.
// But a strip encoded on its own is already what a restart interval holds: its entropy-coded
// data starts with every DC prediction at zero and ends padded with 1-bits to a byte, exactly
// as libjpeg ends an interval before writing RSTn. So each strip is an ordinary TurboJPEG
// encode, and joining them takes one set of headers, a DRI segment and RST markers.

extension JPEGEncoder {
    /// Encodes `image` like ``encode(_:quality:)``, with the same coefficients (so the same
    /// decoded pixels), but in up to `strips` horizontal strips of whole MCU rows encoded on
    /// parallel threads and joined into one baseline JPEG with a restart marker between strips.
    ///
    /// With `preparing`, the image's rows need not exist yet: each strip's thread calls it with
    /// each band of the strip's rows (`bandHeight` rows rounded down to whole MCU rows, in order)
    /// just before it encodes them, so rows written there — converted from a frame — are
    /// encoded while they are in cache. Bands of different strips are prepared side by side.
    ///
    /// `alongside` runs once, on one of the same threads, after the strips are handed out (and,
    /// with `preparing`, once every band is prepared, so it may read the whole image): work
    /// the caller wants beside the encode. It must not start parallel work of its own — a
    /// `concurrentPerform` nested in another runs on one thread, which is why the strips and
    /// the caller's work share this one.
    ///
    /// Falls back to one encode when the image has a single MCU row per strip or when
    /// TurboJPEG's strips are not baseline with identical tables (TJ_* environment overrides).
    ///
    /// `segments`, called once the strips and `alongside` are done, gives marker segments (such
    /// as EXIF and XMP APP1s) placed after the JFIF APP0 as the strips are joined, so the photo
    /// is copied once, not once more per inserted segment. The returned bytes are that one copy
    /// (see ``joinedData(_:height:restartInterval:inserting:)``).
    package func encodeInStrips(_ image: PlanarImage, quality: Int, strips requested: Int,
                                bandHeight: Int = 64, preparing: ((Range<Int>) throws(CodecError) -> Void)? = nil,
                                alongside: () -> Void = {},
                                segments: () throws(CodecError) -> [UInt8] = { [] }) throws(CodecError) -> Data {
        try withoutActuallyEscaping(alongside) { (alongside) throws(CodecError) in
            let source: StripSource = preparing.map { .preparedImage(image, $0) } ?? .image(image)
            return try encodeInStrips(size: image.size, source: source, quality: quality,
                                      layout: StripLayout(size: image.size, strips: requested), bandHeight: bandHeight,
                                      alongside: alongside, segments: segments, whole: { image })
        }
    }

    /// Encodes an image of `size` that is never whole in memory, like ``encode(_:quality:)``
    /// would encode it (the same coefficients), in strips as
    /// ``encodeInStrips(_:quality:strips:bandHeight:preparing:alongside:segments:)`` does: each
    /// strip's thread has a buffer of one band (`bandHeight` rows rounded down to whole MCU
    /// rows) and calls `convert` with each band's rows, the buffer and the image row that is
    /// the buffer's first, to write the rows there just before they are encoded. A 12 MP photo
    /// then takes two buffers of some 400 KB, which stay in cache, instead of 18 MB of planes.
    ///
    /// `alongside` runs once every band is converted. `whole` makes the image, for the one
    /// encode a fallback needs (see the other form).
    package func encodeInStrips(size: PixelSize, quality: Int, strips requested: Int, bandHeight: Int = 64,
                                converting convert: (Range<Int>, PlanarImage, Int) throws(CodecError) -> Void,
                                alongside: () -> Void = {},
                                segments: () throws(CodecError) -> [UInt8] = { [] },
                                whole: () throws(CodecError) -> PlanarImage) throws(CodecError) -> Data {
        let layout = StripLayout(size: size, strips: requested)
        let rows = min(JPEGRawCompressor.rows(inBand: bandHeight), layout.rowsPerStrip)
        var buffers: [PlanarImage] = []
        do {
            for _ in 0..<layout.count { buffers.append(try PlanarImage(size: PixelSize(width: size.width, height: rows))) }
        } catch {
            throw .imaging(error)
        }
        return try withoutActuallyEscaping(convert) { (convert) throws(CodecError) in
            try withoutActuallyEscaping(alongside) { (alongside) throws(CodecError) in
                try encodeInStrips(size: size, source: .bands(buffers, convert), quality: quality, layout: layout,
                                   bandHeight: bandHeight, alongside: alongside, segments: segments, whole: whole)
            }
        }
    }

    /// Where the strips' rows are: in an image (there already, or written band by band by a
    /// callback), or written band by band into each strip's own buffer.
    private enum StripSource {
        case image(PlanarImage)
        case preparedImage(PlanarImage, (Range<Int>) throws(CodecError) -> Void)
        case bands([PlanarImage], (Range<Int>, PlanarImage, Int) throws(CodecError) -> Void)
    }

    /// The strip encode behind both forms; `whole` gives the image for the fallback's one encode.
    private func encodeInStrips(size: PixelSize, source: StripSource, quality: Int, layout: StripLayout, bandHeight: Int,
                                alongside: @escaping () -> Void, segments: () throws(CodecError) -> [UInt8],
                                whole: () throws(CodecError) -> PlanarImage) throws(CodecError) -> Data {
        while stripEncoders.count < layout.count - 1 { stripEncoders.append(try JPEGEncoder()) }
        let encoders = [self] + stripEncoders.prefix(max(0, layout.count - 1))
        var results = [Result<UnsafeBufferPointer<UInt8>, CodecError>?](repeating: nil, count: layout.count)
        // Signalled once by each strip when its last band is prepared (or it failed).
        let prepared = DispatchSemaphore(value: 0)
        let banded: Bool
        if case .image = source { banded = false } else { banded = true }
        results.withUnsafeMutableBufferPointer { slots in
            // Each iteration writes only its own slot and uses only its own encoder; the last
            // one is the caller's.
            let work = StripWork(value: (encoders, slots, source, alongside))
            DispatchQueue.concurrentPerform(iterations: layout.count + 1) { index in
                guard index < layout.count else {
                    // Not a wait for a thread that has yet to start: the indices are handed
                    // out in order, so every strip is already running, or done when
                    // the iterations run one after another on this thread.
                    if banded { for _ in 0..<layout.count { prepared.wait() } }
                    return work.value.3()
                }
                // Each strip starts on a processor of its own (see Processors.moveCurrentThread(to:)).
                Processors.moveCurrentThread(to: index)
                work.value.1[index] = Self.encodeStrip(index, rows: layout.lumaRows(of: index), of: work.value.2,
                                                       with: work.value.0[index], width: size.width, quality: quality,
                                                       bandHeight: bandHeight, prepared: prepared)
            }
        }
        var encoded: [UnsafeBufferPointer<UInt8>] = []
        for result in results { try encoded.append(result!.get()) }
        let inserted = try segments()
        if let joined = Self.joinedData(encoded, height: size.height, restartInterval: layout.mcusPerStrip, inserting: inserted) {
            return joined
        }
        let whole = try encode(try whole(), quality: quality)
        return whole.withUnsafeBufferPointer { Self.joinedData([$0], height: size.height, restartInterval: 0, inserting: inserted) } ?? Data(whole)
    }

    /// Strip `index` (image `rows`) of `source`, encoded by `encoder`. A banded source's strip
    /// signals `prepared` once its last band is prepared, or when it fails.
    private static func encodeStrip(_ index: Int, rows: Range<Int>, of source: StripSource, with encoder: JPEGEncoder,
                                    width: Int, quality: Int, bandHeight: Int,
                                    prepared: DispatchSemaphore) -> Result<UnsafeBufferPointer<UInt8>, CodecError> {
        // Where a band of the strip's rows (image rows) is, once written.
        let bandRows: (Range<Int>) throws(CodecError) -> PlaneRows
        switch source {
        case .image(let image):
            return Result { () throws(CodecError) in try encoder.compress(PlaneRows(rows: rows, of: image), quality: quality) }
        case .preparedImage(let image, let prepare):
            bandRows = { (rows) throws(CodecError) in
                try prepare(rows)
                return PlaneRows(rows: rows, of: image)
            }
        case .bands(let buffers, let convert):
            let buffer = buffers[index]
            bandRows = { (rows) throws(CodecError) in
                try convert(rows, buffer, rows.lowerBound)
                return PlaneRows(rows: rows, of: buffer, firstRow: rows.lowerBound)
            }
        }
        var signalled = false
        defer { if !signalled { prepared.signal() } }
        return Result { () throws(CodecError) in
            try encoder.compress(width: width, height: rows.count, quality: quality, band: bandHeight) { (local) throws(CodecError) in
                let planes = try bandRows((local.lowerBound + rows.lowerBound)..<(local.upperBound + rows.lowerBound))
                if local.upperBound == rows.count { prepared.signal(); signalled = true }
                return planes
            }
        }
    }

    /// The rows of each strip ``encodeInStrips(_:quality:strips:bandHeight:preparing:alongside:segments:)``
    /// encodes an image of `size` in: the parts whose bands come in order on one thread.
    package static func stripRows(for size: PixelSize, strips: Int) -> [Range<Int>] {
        let layout = StripLayout(size: size, strips: strips)
        return (0..<layout.count).map(layout.lumaRows(of:))
    }

    /// One JPEG from strips encoded apart (see ``StripJoin``). Nil when the strips are not
    /// baseline single-scan JPEGs with the same headers.
    static func joined(_ strips: [UnsafeBufferPointer<UInt8>], height: Int, restartInterval: Int,
                       inserting inserted: [UInt8] = []) -> [UInt8]? {
        guard let join = StripJoin(strips, height: height, restartInterval: restartInterval, inserting: inserted) else { return nil }
        return [UInt8](unsafeUninitializedCapacity: join.count) { (buffer, initialized) in
            join.write(into: UnsafeMutableRawBufferPointer(buffer))
            initialized = join.count
        }
    }

    /// The same join, written once into memory of its own that the returned `Data` owns: a
    /// photo's bytes are not copied again on their way to a file. The memory comes from the
    /// ``BufferPool`` and goes back to it with the `Data`: fresh, every page of it would first
    /// be zeroed by the kernel (in a session, the last photo's buffer is reused), and at
    /// megabytes it is on huge pages (``LargeAllocation``), where a process that takes one photo
    /// takes a fault per 2 MiB rather than per 4 KiB.
    static func joinedData(_ strips: [UnsafeBufferPointer<UInt8>], height: Int, restartInterval: Int,
                           inserting inserted: [UInt8] = []) -> Data? {
        guard let join = StripJoin(strips, height: height, restartInterval: restartInterval, inserting: inserted) else { return nil }
        let buffer = BufferPool.shared.take(byteCount: join.count)
        join.write(into: buffer)
        return Data(bytesNoCopy: buffer.baseAddress!, count: join.count, deallocator: .custom { (pointer, count) in
            BufferPool.shared.give(UnsafeMutableRawBufferPointer(start: pointer, count: count))
        })
    }
}

/// How strips encoded apart become one JPEG: the first strip's headers with the full height and
/// a DRI segment, then each strip's entropy-coded data, RST0…RST7 in turn between them;
/// `inserted` segments follow the first strip's JFIF APP0 (or its SOI). One strip is taken as it
/// is. Checked and measured first, so the output is allocated once at its exact size.
private struct StripJoin {
    let strips: [UnsafeBufferPointer<UInt8>]
    let layouts: [StripHeader]
    let insertion: Int
    let inserted: [UInt8]
    let height: Int
    let restartInterval: Int
    /// Bytes of the joined JPEG.
    let count: Int

    /// Nil when the strips are not baseline single-scan JPEGs with the same headers.
    init?(_ strips: [UnsafeBufferPointer<UInt8>], height: Int, restartInterval: Int, inserting inserted: [UInt8]) {
        guard let first = strips.first, first.count >= 6 else { return nil }
        // After SOI and a leading APP0, as TurboJPEG writes them.
        let insertion = first[2] == 0xFF && first[3] == 0xE0 ? 4 + (Int(first[4]) << 8 | Int(first[5])) : 2
        guard insertion <= first.count else { return nil }
        var layouts: [StripHeader] = []
        if strips.count > 1 {
            for strip in strips {
                guard let header = StripHeader(strip) else { return nil }
                layouts.append(header)
            }
            let header = layouts[0]
            for (strip, layout) in zip(strips, layouts).dropFirst() {
                // The same tables and components; only the height may differ.
                guard layout.dataStart == header.dataStart, layout.heightOffset == header.heightOffset,
                      (0..<header.dataStart).allSatisfy({ ($0 == header.heightOffset || $0 == header.heightOffset + 1)
                          || strip[$0] == first[$0] }) else { return nil }
            }
        }
        (self.strips, self.layouts, self.insertion, self.inserted) = (strips, layouts, insertion, inserted)
        (self.height, self.restartInterval) = (height, restartInterval)
        if strips.count == 1 {
            count = first.count + inserted.count
        } else {
            // Headers with DRI, each strip's data without its EOI, an RST between strips, EOI.
            count = layouts[0].dataStart + inserted.count + 6 + 2 * (strips.count - 1) + 2
                + zip(strips, layouts).reduce(0) { $0 + $1.0.count - 2 - $1.1.dataStart }
        }
    }

    /// Writes the joined JPEG into `output`, which holds exactly ``count`` bytes.
    func write(into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count == count, "the joined JPEG is \(count) bytes, not \(output.count)")
        var position = 0
        func append(_ bytes: some Collection<UInt8>) {
            // Every piece is contiguous (strip slices, arrays): one memcpy each.
            bytes.withContiguousStorageIfAvailable { (source) in
                (output.baseAddress! + position).copyMemory(from: source.baseAddress!, byteCount: source.count)
            }!
            position += bytes.count
        }
        let first = strips[0]
        append(first[..<insertion])
        append(inserted)
        defer { precondition(position == count, "the join wrote \(position) of its \(count) bytes") }
        guard strips.count > 1 else {
            append(first[insertion...])
            return
        }
        let header = layouts[0]
        append(first[insertion..<header.scanStart])
        output[header.heightOffset + inserted.count] = UInt8(height >> 8)
        output[header.heightOffset + inserted.count + 1] = UInt8(height & 0xFF)
        append([0xFF, 0xDD, 0x00, 0x04, UInt8(restartInterval >> 8), UInt8(restartInterval & 0xFF)])
        append(first[header.scanStart..<header.dataStart])
        for (index, strip) in strips.enumerated() {
            if index > 0 { append([0xFF, 0xD0 + UInt8((index - 1) % 8)]) }
            append(strip[layouts[index].dataStart..<(strip.count - 2)])
        }
        append([0xFF, 0xD9])
    }
}

/// Where the strips of an image start: whole 16-row MCU rows, as many in each strip as keeps the
/// MCUs of a strip within DRI's 16-bit restart interval; the last strip takes the rest.
struct StripLayout {
    let height: Int
    let rowsPerStrip: Int
    let count: Int
    let mcusPerStrip: Int

    init(size: PixelSize, strips: Int) {
        let mcuRows = (size.height + 15) / 16, mcusPerRow = (size.width + 15) / 16
        let perStrip = max(1, min((mcuRows + max(strips, 1) - 1) / max(strips, 1), 65_535 / max(mcusPerRow, 1)))
        height = size.height
        rowsPerStrip = perStrip * 16
        count = (mcuRows + perStrip - 1) / perStrip
        mcusPerStrip = perStrip * mcusPerRow
    }

    /// The luma rows of strip `index`.
    func lumaRows(of index: Int) -> Range<Int> {
        (index * rowsPerStrip)..<min(height, (index + 1) * rowsPerStrip)
    }
}

/// Where a TurboJPEG strip's scan and entropy-coded data start and where its SOF0 keeps the height.
private struct StripHeader {
    var heightOffset = 0
    var scanStart = 0
    var dataStart = 0

    /// Nil unless the strip is SOI, header segments with one SOF0 and no DRI, one SOS, data, EOI.
    init?(_ jpeg: UnsafeBufferPointer<UInt8>) {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8, jpeg[jpeg.count - 2] == 0xFF, jpeg[jpeg.count - 1] == 0xD9 else { return nil }
        var position = 2, sawFrame = false
        while position + 3 < jpeg.count, jpeg[position] == 0xFF {
            let marker = jpeg[position + 1]
            let end = position + 2 + (Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3]))
            guard end <= jpeg.count else { return nil }
            switch marker {
            case 0xC0:
                heightOffset = position + 5
                sawFrame = true
            case 0xC1...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF, 0xDD:
                return nil  // not baseline, or a restart interval already set
            case 0xDA:
                guard sawFrame else { return nil }
                (scanStart, dataStart) = (position, end)
                return
            default:
                break
            }
            position = end
        }
        return nil
    }
}

/// The encoders and result slots handed to the strip threads: each thread touches only its own
/// index, which the compiler cannot see.
private struct StripWork<Value>: @unchecked Sendable {
    let value: Value
}
