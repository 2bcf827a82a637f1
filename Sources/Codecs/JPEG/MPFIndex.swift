/// The Multi-Picture Format index of a JPEG (CIPA DC-007): an APP2 "MPF" segment whose MP Entry
/// table gives each image's size and its offset from the index's TIFF header. Cameras put a large
/// preview (or a second view) after the main image's EOI; a turn changes the main image's
/// length, so the table must follow, or readers find the other images at the wrong place.
package enum MPFIndex {
    static let signature = Array("MPF".utf8) + [0]
    /// MPEntry: 16 bytes per image (attributes, size, offset, two dependent-image entries).
    static let entryTag = 0xB002

    /// `jpeg` (a turned `original`, which carries the index and the images after its EOI) with
    /// the table edited in place: the first image's size becomes the new main image's, and every
    /// other image's offset moves by as much as its bytes moved relative to the index. Unchanged
    /// when there is no index.
    package static func rebasing(_ jpeg: [UInt8], from original: [UInt8]) throws(CodecError) -> [UInt8] {
        guard let new = try location(in: jpeg), let old = try location(in: original) else { return jpeg }
        let distance = (new.mainEnd - new.header) - (old.mainEnd - old.header)
        var bytes = jpeg
        let little = new.littleEndian
        func integer(_ offset: Int) throws(CodecError) -> Int {
            try ByteReader(bytes: bytes, format: "MPF").integer(at: offset, count: 4, littleEndian: little, "an MP entry")
        }
        func put(_ value: Int, at offset: Int) {
            bytes.replaceSubrange(offset..<(offset + 4), with: TIFFHeader.bytes(of: value, count: 4, littleEndian: little))
        }
        for entry in 0..<new.entryCount {
            let field = new.entries + entry * 16
            if entry == 0 {
                put(new.mainEnd, at: field + 4)  // the primary image: SOI to EOI
            } else if try integer(field + 8) != 0 {
                // An offset that did not point past the main image was wrong already: left as it was.
                let moved = try integer(field + 8) + distance
                if try integer(field + 8) >= old.mainEnd - old.header, (0...Int(UInt32.max)).contains(moved) { put(moved, at: field + 8) }
            }
        }
        return bytes
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
        let trailer = try JPEGFile.trailer(of: jpeg)
        guard trailer.startIndex > segments.scanStart else { return nil }  // no EOI: nothing after it
        return (header, tiff.isLittleEndian, header + values.offset, values.length / 16, trailer.startIndex)
    }
}
