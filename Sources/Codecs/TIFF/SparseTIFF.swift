import CTIFF

/// A TIFF file read from its descriptor but for the strips of its first directory: the
/// directories, their values and every other byte are in ``head`` at their own offsets, as
/// ``TIFFDirectoryEditor`` edits them; the strips' bytes are left unread (``holes``), to be
/// decoded from the file as they are needed. A large picture's coded bytes are then never
/// held: memory that is reserved but never written takes no room.
package struct SparseTIFF {
    /// The file's bytes, `holes` excepted (never read: whatever the memory held).
    package let head: [UInt8]
    /// The byte ranges of IFD0's strips (or tiles), merged where they touch, in order.
    package let holes: [Range<Int>]

    /// The TIFF file `descriptor` of `fileSize` bytes; nil, having read little, for a file
    /// that is not a classic TIFF, that libtiff cannot open, or whose strips overlap a
    /// structure its first directory reaches (``TIFFDirectoryEditor/structures``): such a file
    /// is read whole instead, and what is wrong with it is named there.
    package init?(descriptor: Int32, fileSize: Int) {
        var header = [UInt8](repeating: 0, count: 8)
        guard header.withUnsafeMutableBytes({ InputFile.read(descriptor, into: $0, at: 0) }) == 8, let tiff = TIFFHeader(header),
              let holes = Self.strips(descriptor: descriptor, fileSize: fileSize) else { return nil }
        // Room for what an edit appends (tables, a longer XMP packet), so that the array never
        // grows by copying itself, touching the holes.
        let kept = fileSize - holes.reduce(0) { $0 + $1.count }
        let capacity = fileSize + 2 * kept + 16 * 65_536
        var complete = true
        head = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var position = 0
            for range in holes + [fileSize..<fileSize] {
                let wanted = position..<range.lowerBound
                if !wanted.isEmpty {
                    let target = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[wanted])
                    complete = complete && InputFile.read(descriptor, into: target, at: wanted.lowerBound) == wanted.count
                }
                position = range.upperBound
            }
            initialized = fileSize
        }
        // A structure the directory reaches inside the strips (a damaged or hostile file: the
        // header, IFD0 itself, its values, the directories it links) would be read from a
        // hole; read whole, the file is refused naming the overlap.
        guard complete, let editor = try? TIFFDirectoryEditor(head, directoryAt: tiff.firstIFDOffset),
              !editor.structures.contains(where: { structure in holes.contains { $0.overlaps(structure.range) } }) else { return nil }
        self.holes = holes
    }

    /// The merged byte ranges of IFD0's strips or tiles, as libtiff reads the tables; nil when
    /// libtiff cannot open the file.
    private static func strips(descriptor: Int32, fileSize: Int) -> [Range<Int>]? {
        guard let file = try? TIFFStream(descriptor: descriptor, size: fileSize).open(mode: "rc") else { return nil }
        defer { file.close() }
        let count = libtiff.IsTiled(file.tiff) != 0 ? libtiff.NumberOfTiles(file.tiff) : libtiff.NumberOfStrips(file.tiff)
        var ranges: [Range<Int>] = []
        for index in 0..<count {
            let offset = Int(clamping: libtiff.GetStrileOffset(file.tiff, index))
            let length = Int(clamping: libtiff.GetStrileByteCount(file.tiff, index))
            let start = min(offset, fileSize)
            ranges.append(start..<min(fileSize, start + min(length, fileSize)))
        }
        guard file.stream.errors.isEmpty else { return nil }
        return merged(ranges)
    }

    /// `ranges` sorted, the empty ones dropped, those that overlap or touch made one.
    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
