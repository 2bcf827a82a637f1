/// Edits the entries of one directory of a classic TIFF file in place, keeping every other
/// byte where it was: values that fit where they were are overwritten there, values that grow
/// are appended at the end of the file (word-aligned) and their entry pointed at them. Entries
/// are never added or removed, so the directory and everything that points into the file
/// (EXIF, GPS and sub-IFDs, maker notes, ICC, XMP, IPTC) stays valid.
struct TIFFDirectoryEditor {
    /// The whole file.
    private(set) var bytes: [UInt8]
    let littleEndian: Bool
    /// Offset of the directory.
    let directory: Int

    /// One 12-byte directory entry.
    typealias Entry = TIFFDirectory.Entry

    /// The directory's entries, in file order, read again after every edit.
    private(set) var entries: [Entry]

    /// The directory at `offset` of `bytes`; every entry and its values must lie in the file.
    init(_ bytes: [UInt8], directoryAt offset: Int) throws(CodecError) {
        guard let header = TIFFHeader(bytes) else {
            throw .corruptFile(format: "TIFF", reason: "no classic TIFF header (\"II*\\0\" or \"MM\\0*\"; BigTIFF is not edited)")
        }
        self.bytes = bytes
        littleEndian = header.isLittleEndian
        directory = offset
        guard offset >= 8, offset + 2 <= bytes.count else {
            throw .corruptFile(format: "TIFF", reason: "the directory at byte \(offset) lies outside the file")
        }
        let read = try TIFFDirectory(bytes, at: offset)
        guard read.end <= bytes.count else {
            throw .corruptFile(format: "TIFF", reason: "the directory at byte \(offset) runs past the end of the file")
        }
        entries = read.entries
        for entry in entries { _ = try entry.valueRange(in: bytes) }
    }

    /// Reads the entries again after an edit of the bytes.
    private mutating func reread() throws(CodecError) {
        entries = try TIFFDirectory(bytes, at: directory).entries
    }

    func entry(_ tag: Int) -> Entry? { entries.first { $0.tag == tag } }

    /// The byte ranges of the file's structures that the directory reaches, named as an error
    /// names them: the header, the directory with its next-IFD link, each value stored outside
    /// its entry, the EXIF, GPS and interoperability directories and sub-IFDs it points to, and
    /// the next directory of the chain (IFD1).
    var structures: [(name: String, range: Range<Int>)] {
        let count = entries.count
        var found: [(name: String, range: Range<Int>)] = [
            ("the TIFF header", 0..<8), ("IFD0's directory", directory..<(directory + 2 + count * 12 + 4)),
        ]
        for entry in entries where entry.length > 4 {
            found.append(("the values of IFD0's tag \(entry.tag)", entry.valuesAt..<(entry.valuesAt + entry.length)))
        }
        var directories: [(name: String, offset: Int)] = [(34665, "the EXIF directory"), (34853, "the GPS directory"),
                                                            (40965, "the interoperability directory")].compactMap { tag, name in
            integers(tag)?.first.map { (name, $0) }
        }
        directories += (integers(330) ?? []).enumerated().map { ("sub-IFD \($0.offset)", $0.element) }
        let link = directory + 2 + count * 12
        if let next = try? TIFFHeader.integer(bytes, at: link, count: 4, littleEndian: littleEndian, "IFD0's next-IFD link") {
            directories.append(("IFD1's directory", next))
        }
        for (name, offset) in directories {
            guard offset >= 8, offset < bytes.count, let end = TIFFHeader.directoryEnd(bytes, at: offset), end > offset else { continue }
            found.append((name, offset..<min(end, bytes.count)))
        }
        return found
    }

    /// The values of a BYTE, SHORT or LONG entry; nil when absent or of another type.
    func integers(_ tag: Int) -> [Int]? {
        guard let entry = entry(tag), [1, 3, 4].contains(entry.type) else { return nil }
        return try? entry.integers(in: bytes)
    }

    /// The raw value bytes of an entry, as stored.
    func valueBytes(_ tag: Int) -> [UInt8]? {
        guard let range = try? entry(tag)?.valueRange(in: bytes) else { return nil }
        return Array(bytes[range])
    }

    /// Sets `tag`'s values: SHORT when the entry was SHORT and every value fits, else LONG.
    mutating func setIntegers(_ tag: Int, _ values: [Int]) throws(CodecError) {
        guard let entry = entry(tag), [3, 4].contains(entry.type) else {
            throw .invalidArgument("TIFF tag \(tag) is not a SHORT or LONG entry")
        }
        let type = entry.type == 3 && values.allSatisfy({ (0...0xFFFF).contains($0) }) ? 3 : 4
        guard values.allSatisfy({ (0...Int(UInt32.max)).contains($0) }) else {
            throw .invalidArgument("a value of TIFF tag \(tag) does not fit a LONG")
        }
        let size = type == 3 ? 2 : 4
        try setValues(tag, type: type, count: values.count, values.flatMap { encode($0, size: size) })
    }

    /// Sets `tag`'s type, count and value bytes, where they fit or appended.
    mutating func setValues(_ tag: Int, type: Int, count: Int, _ values: [UInt8]) throws(CodecError) {
        guard let entry = entry(tag) else { throw .invalidArgument("TIFF tag \(tag) is absent") }
        put(type, at: entry.position + 2, size: 2)
        put(count, at: entry.position + 4, size: 4)
        if values.count <= 4 {
            bytes.replaceSubrange((entry.position + 8)..<(entry.position + 12), with: values + [UInt8](repeating: 0, count: 4 - values.count))
        } else if entry.length > 4, values.count <= entry.length {
            bytes.replaceSubrange(entry.valuesAt..<(entry.valuesAt + values.count), with: values)
        } else {
            put(try append(values), at: entry.position + 8, size: 4)
        }
        try reread()
    }

    /// Exchanges the type, count and values of two entries (XResolution and YResolution when a
    /// picture is turned a quarter).
    mutating func swapValues(_ first: Int, _ second: Int) throws(CodecError) {
        guard let a = entry(first), let b = entry(second) else { return }
        let saved = Array(bytes[(a.position + 2)..<(a.position + 12)])
        bytes.replaceSubrange((a.position + 2)..<(a.position + 12), with: bytes[(b.position + 2)..<(b.position + 12)])
        bytes.replaceSubrange((b.position + 2)..<(b.position + 12), with: saved)
        try reread()
    }

    /// Writes `data` over `range`, which it must fill exactly.
    mutating func overwrite(_ range: Range<Int>, with data: ArraySlice<UInt8>) {
        precondition(data.count == range.count)
        bytes.replaceSubrange(range, with: data)
    }

    /// Zeroes `range`.
    mutating func zero(_ range: Range<Int>) {
        bytes.withUnsafeMutableBufferPointer { UnsafeMutableBufferPointer(rebasing: $0[range]).update(repeating: 0) }
    }

    /// Makes room for `extra` more bytes at the end, so that appending them does not copy the
    /// file again (an array that grows copies itself whole).
    mutating func reserve(extra: Int) { bytes.reserveCapacity(bytes.count + extra + 1) }

    /// Cuts the file at `offset` (data after it is no longer referenced).
    mutating func truncate(at offset: Int) { bytes.removeSubrange(offset...) }

    /// Appends `data` at the end of the file, word-aligned, and returns its offset.
    mutating func append(_ data: some Collection<UInt8>) throws(CodecError) -> Int {
        if bytes.count % 2 == 1 { bytes.append(0) }
        let offset = bytes.count
        guard offset + data.count <= Int(UInt32.max) else { throw .invalidArgument("the TIFF file would pass 4 GiB") }
        bytes += data
        return offset
    }

    /// The edited file, the editor left empty: the caller's array is then the only one, so
    /// editing it further (the EXIF directory) does not copy it.
    mutating func takeBytes() -> [UInt8] {
        entries = []
        defer { bytes = [] }
        return bytes
    }

    private mutating func put(_ value: Int, at offset: Int, size: Int) {
        bytes.replaceSubrange(offset..<(offset + size), with: encode(value, size: size))
    }

    private func encode(_ value: Int, size: Int) -> [UInt8] {
        TIFFHeader.bytes(of: value, count: size, littleEndian: littleEndian)
    }
}
