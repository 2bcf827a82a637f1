/// The Multi-Picture Format index of a JPEG (CIPA DC-007): an APP2 "MPF" segment whose MP Entry
/// table gives each image's size and its offset from the index's TIFF header. Cameras put a large
/// preview (or a second view) after the main image's EOI; a turn changes the main image's
/// length, so the table must follow, or readers find the other images at the wrong place; and
/// the other images turn with it (``assembling(_:of:companions:replacedBy:)``).
package enum MPFIndex {
    static let signature = Array("MPF".utf8) + [0]
    /// MPEntry: 16 bytes per image (attributes, size, offset, two dependent-image entries).
    static let entryTag = 0xB002

    /// The images the index lists after the main one — a camera's preview, an Ultra HDR gain
    /// map, a second view: each one's MP Entry number and bytes in `jpeg`, in the order of the
    /// file. Entries that point into the main image or outside the file, or at something that
    /// does not start as a JPEG, are not listed (a file with them is rewritten with those entries
    /// as they were).
    package static func companions(in jpeg: [UInt8]) throws(CodecError) -> [Companion] {
        guard let index = try location(in: jpeg) else { return [] }
        var found: [Companion] = []
        for entry in 1..<max(1, index.entryCount) {
            let field = index.entries + entry * 16
            let (size, offset) = (try integer(jpeg, field + 4, index.littleEndian), try integer(jpeg, field + 8, index.littleEndian))
            let start = index.header + offset
            guard offset != 0, size >= 4, start >= index.mainEnd, start <= jpeg.count - size,
                  jpeg[start] == 0xFF, jpeg[start + 1] == 0xD8 else { continue }
            found.append(Companion(entry: entry, range: start..<(start + size)))
        }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// One image after the main one: its MP Entry number and its bytes in the file.
    package struct Companion: Sendable {
        package let entry: Int
        package let range: Range<Int>
    }

    /// `primary` — a turned main image carrying `original`'s index, nothing after its EOI —
    /// followed by `original`'s bytes after its EOI, each of `companions` (``companions(in:)``
    /// of `original`) replaced by `replacements[entry]` when given; the table then says where
    /// everything is: the main image's new size, each companion's new size and offset from the
    /// index. Entries that were not companions keep their values (an offset that pointed past
    /// the main image moves with the bytes). Unchanged `primary` + trailer when there is no index.
    package static func assembling(_ primary: [UInt8], of original: [UInt8], companions: [Companion],
                                   replacedBy replacements: [Int: [UInt8]] = [:]) throws(CodecError) -> [UInt8] {
        guard let new = try location(in: primary), let old = try location(in: original) else {
            // Most files end at their EOI: then the primary is the file, not a 5 MB copy of it.
            let trailer = try JPEGFile.trailer(of: original)
            return trailer.isEmpty ? primary : primary + trailer
        }
        let (rebuilt, placed) = try trailer(of: original, companions: companions, after: primary.count) {
            replacements[$0.entry] ?? Array(original[$0.range])
        }
        var bytes = primary + rebuilt
        let little = new.littleEndian
        func put(_ value: Int, at offset: Int) {
            bytes.replaceSubrange(offset..<(offset + 4), with: TIFFHeader.bytes(of: value, count: 4, littleEndian: little))
        }
        let distance = (new.mainEnd - new.header) - (old.mainEnd - old.header)
        for entry in 0..<new.entryCount {
            let field = new.entries + entry * 16
            if entry == 0 {
                put(new.mainEnd, at: field + 4)  // the primary image: SOI to EOI
            } else if let place = placed[entry] {
                put(place.size, at: field + 4)
                put(place.start - new.header, at: field + 8)
            } else if try integer(bytes, field + 8, little) != 0 {
                // An offset that did not point past the main image was wrong already: left as it was.
                let moved = try integer(bytes, field + 8, little) + distance
                if try integer(bytes, field + 8, little) >= old.mainEnd - old.header, (0...Int(UInt32.max)).contains(moved) {
                    put(moved, at: field + 8)
                }
            }
        }
        return bytes
    }

    /// `primary` without its index (the APP2 "MPF" segment), followed by `original`'s bytes after
    /// its EOI without `companions`: for a file whose companions cannot be kept.
    package static func droppingCompanions(_ primary: [UInt8], of original: [UInt8], companions: [Companion]) throws(CodecError) -> [UInt8] {
        let segments = try JPEGFile.headerSegments(of: primary)
        var unindexed = primary
        if let segment = segments.list.first(where: { $0.marker == 0xE2 && $0.payloadStarts(with: signature, in: primary) }) {
            unindexed.removeSubrange(segment.range)
        }
        return unindexed + (try trailer(of: original, companions: companions, after: unindexed.count) { _ in nil }).bytes
    }

    /// `original`'s bytes after its EOI with each companion replaced by what `replacement` gives
    /// (nil: left out), and where each replacement lands in a file whose trailer starts at
    /// `start`. A companion overlapping one before it is left as the bytes already copied.
    private static func trailer(of original: [UInt8], companions: [Companion], after start: Int,
                                _ replacement: (Companion) -> [UInt8]?) throws(CodecError)
        -> (bytes: [UInt8], placed: [Int: (start: Int, size: Int)]) {
        let trailer = try JPEGFile.trailer(of: original)
        var rebuilt: [UInt8] = []
        var placed: [Int: (start: Int, size: Int)] = [:]
        var copied = trailer.startIndex
        for companion in companions where companion.range.lowerBound >= copied {
            rebuilt += original[copied..<companion.range.lowerBound]
            if let bytes = replacement(companion) {
                placed[companion.entry] = (start + rebuilt.count, bytes.count)
                rebuilt += bytes
            }
            copied = companion.range.upperBound
        }
        return (rebuilt + original[copied...], placed)
    }

    private static func integer(_ bytes: [UInt8], _ offset: Int, _ littleEndian: Bool) throws(CodecError) -> Int {
        try ByteReader(bytes: bytes, format: "MPF").integer(at: offset, count: 4, littleEndian: littleEndian, "an MP entry")
    }

    /// Where the index's TIFF header and MP Entry table are, and where the main image ends.
    private static func location(in jpeg: [UInt8]) throws(CodecError)
        -> (header: Int, littleEndian: Bool, entries: Int, entryCount: Int, mainEnd: Int)? {
        let segments = try JPEGFile.headerSegments(of: jpeg)
        guard let segment = segments.list.first(where: { $0.marker == 0xE2 && $0.payloadStarts(with: signature, in: jpeg) }) else {
            return nil
        }
        let header = segment.payloadStart + signature.count
        let index = Array(jpeg[header..<segment.range.upperBound])
        guard let tiff = TIFFHeader(index), let values = TIFFHeader.entry(index, directoryAt: tiff.firstIFDOffset, tag: entryTag),
              values.length % 16 == 0, values.offset + values.length <= index.count else {
            return nil  // no usable table: nothing that can be kept right
        }
        // No EOI: nothing after it.
        guard let end = JPEGFile.endOfImage(in: jpeg, from: segments.scanStart) else { return nil }
        return (header, tiff.isLittleEndian, header + values.offset, values.length / 16, end + 2)
    }
}
