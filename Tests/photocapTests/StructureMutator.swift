import TestSupport

/// A structure-aware mutator for the fuzz: it walks a seed's TIFF directories (a TIFF or DNG
/// file, a JPEG's EXIF and MPF blocks) and ISO boxes (HEIF), independently of the code under
/// test, and rewrites the fields that say where things are and how long they are: offsets
/// pointed into other structures or past the end, counts past the end, next-IFD links that
/// loop or lead to another directory, entry counts and box sizes that overflow, item IDs and
/// property indices of HEIF references and associations that name other items or none, and
/// the auxiliary type of an `auxC`. Random byte
/// flips rarely hit these fields, and when they do, rarely with a value that lands somewhere.
struct StructureMutator {
    /// What a field says.
    enum Kind { case offset, link, count, entryCount, type, size, identifier }

    /// A field of the seed: where it is, its width and byte order, and the start of the TIFF
    /// structure its offsets count from (0 for a box or a whole TIFF file).
    struct Field {
        let position: Int
        let size: Int
        let littleEndian: Bool
        let kind: Kind
        let base: Int
    }

    private(set) var fields: [Field] = []
    /// Where structures start in the seed (directories, out-of-line values, strips, boxes).
    private(set) var targets: [Int] = [0]

    init(_ seed: [UInt8]) {
        if seed.starts(with: [0xFF, 0xD8]) {
            walkJPEG(seed)
        } else if seed.count >= 8, seed[4..<8].elementsEqual("ftyp".utf8) {
            walkBoxes(seed, 0..<seed.count, depth: 0)
        } else {
            walkTIFF(seed, base: 0)
        }
    }

    /// `seed` with one to three of its fields rewritten.
    func mutated(_ seed: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            guard let field = fields.randomElement(using: &random) else { break }
            let old = Self.read(bytes, field.position, field.size, field.littleEndian) ?? 0
            let maximum = field.size >= 8 ? Int.max : (1 << (8 * field.size)) - 1
            let value: Int
            switch field.kind {
            case .offset, .link:
                let target = targets.randomElement(using: &random)! - field.base
                value = [target, target + Int.random(in: -4...4, using: &random), 0, bytes.count - field.base,
                         bytes.count - field.base - 2, maximum, old].randomElement(using: &random)!
            case .count:
                value = [maximum, bytes.count, old + 1, old * 2, 0, (bytes.count - field.base) / 2].randomElement(using: &random)!
            case .entryCount:
                value = [maximum, 0, old + 1, old - 1, bytes.count / 12].randomElement(using: &random)!
            case .type:
                value = Int.random(in: 0...19, using: &random)
            case .identifier:
                value = [0, 1, 2, 3, old + 1, old - 1, maximum].randomElement(using: &random)!
            case .size:
                value = [0, 1, 7, 8, old - 1, old + 1, old * 2, maximum].randomElement(using: &random)!
                // A 64-bit box size that overflows any offset it is added to.
                if field.size == 4, value == 1, field.position + 16 <= bytes.count {
                    let large: UInt64 = [UInt64.max, UInt64(Int.max), 1 << 63, UInt64(Int.max) - 7].randomElement(using: &random)!
                    for index in 0..<8 { bytes[field.position + 8 + index] = UInt8(truncatingIfNeeded: large >> (8 * (7 - index))) }
                }
            }
            Self.write(value, into: &bytes, field)
        }
        return bytes
    }

    private static func read(_ bytes: [UInt8], _ at: Int, _ size: Int, _ little: Bool) -> Int? {
        guard at >= 0, size <= 8, at + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[at + (little ? size - 1 - index : index)]) }
        return Int(exactly: value)
    }

    private static func write(_ value: Int, into bytes: inout [UInt8], _ field: Field) {
        guard field.position + field.size <= bytes.count else { return }
        for index in 0..<field.size {
            let shift = 8 * (field.littleEndian ? index : field.size - 1 - index)
            bytes[field.position + index] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }

    private mutating func add(_ position: Int, _ size: Int, _ little: Bool, _ kind: Kind, base: Int = 0) {
        fields.append(Field(position: position, size: size, littleEndian: little, kind: kind, base: base))
    }

    /// Tags whose values are offsets of data: StripOffsets, TileOffsets, JPEGInterchangeFormat.
    private static let dataOffsetTags: Set<Int> = [273, 324, 0x0201]
    /// Tags whose values are offsets of directories: SubIFDs, EXIF, GPS, interoperability.
    private static let directoryTags: Set<Int> = [330, 34665, 34853, 40965]
    private static let typeSizes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4]

    /// The TIFF structure at `base`: its directory chain, sub-directories, values and strips.
    private mutating func walkTIFF(_ bytes: [UInt8], base: Int) {
        guard base + 8 <= bytes.count, bytes[base] == bytes[base + 1], [0x49, 0x4D].contains(bytes[base]) else { return }
        let little = bytes[base] == 0x49
        func read(_ at: Int, _ size: Int) -> Int? { Self.read(bytes, base + at, size, little) }
        targets.append(base)
        add(base + 4, 4, little, .link, base: base)
        var pending = [read(4, 4) ?? 0], seen: Set<Int> = []
        while let directory = pending.popLast(), seen.count < 32 {
            guard directory >= 8, !seen.contains(directory), let count = read(directory, 2) else { continue }
            seen.insert(directory)
            targets.append(base + directory)
            add(base + directory, 2, little, .entryCount, base: base)
            for index in 0..<count {
                let entry = directory + 2 + index * 12
                guard let tag = read(entry, 2), let type = read(entry + 2, 2), let values = read(entry + 4, 4),
                      let field = read(entry + 8, 4) else { break }
                add(base + entry + 2, 2, little, .type, base: base)
                add(base + entry + 4, 4, little, .count, base: base)
                let size = Self.typeSizes[type] ?? 1
                let valuesAt = values * size <= 4 ? entry + 8 : field
                if values * size > 4 {
                    add(base + entry + 8, 4, little, .offset, base: base)
                    targets.append(base + field)
                }
                guard [3, 4, 13].contains(type), values <= 4096 else {
                    if tag == 0xB002, type == 7 { walkMPEntries(bytes, at: base + valuesAt, count: values / 16, little, base: base) }
                    continue
                }
                for value in 0..<values {
                    let at = valuesAt + value * size
                    guard let offset = read(at, size) else { break }
                    if Self.dataOffsetTags.contains(tag) {
                        add(base + at, size, little, .offset, base: base)
                        targets.append(base + offset)
                    } else if Self.directoryTags.contains(tag) {
                        add(base + at, size, little, .link, base: base)
                        pending.append(offset)
                    }
                }
            }
            let link = directory + 2 + count * 12
            if let next = read(link, 4) {
                add(base + link, 4, little, .link, base: base)
                pending.append(next)
            }
        }
    }

    /// An MPF index's MP Entry table: each image's size and offset (from the index's header).
    private mutating func walkMPEntries(_ bytes: [UInt8], at start: Int, count: Int, _ little: Bool, base: Int) {
        for index in 0..<min(count, 64) where start + index * 16 + 16 <= bytes.count {
            add(start + index * 16 + 4, 4, little, .count, base: base)
            add(start + index * 16 + 8, 4, little, .offset, base: base)
        }
    }

    /// The segments before the scan: their lengths, and the TIFF structures of EXIF and MPF.
    private mutating func walkJPEG(_ bytes: [UInt8]) {
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF, bytes[position + 1] != 0xDA {
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            add(position + 2, 2, false, .size)
            targets.append(position)
            let payload = position + 4
            if bytes[position + 1] == 0xE1, bytes[payload...].starts(with: Array("Exif".utf8) + [0, 0]) {
                walkTIFF(bytes, base: payload + 6)
            } else if bytes[position + 1] == 0xE2, bytes[payload...].starts(with: Array("MPF".utf8) + [0]) {
                walkTIFF(bytes, base: payload + 4)
            }
            position += 2 + max(length, 2)
        }
        targets.append(position)
    }

    /// ISO boxes in `range`: their sizes, the containers' children and `iloc`'s offsets.
    private mutating func walkBoxes(_ bytes: [UInt8], _ range: Range<Int>, depth: Int) {
        var position = range.lowerBound
        while depth < 4, position + 8 <= range.upperBound {
            guard var size = Self.read(bytes, position, 4, false) else { return }
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            add(position, 4, false, .size)
            targets.append(position)
            var header = 8
            if size == 1, let large = Self.read(bytes, position + 8, 8, false) {
                add(position + 8, 8, false, .size)
                (size, header) = (large, 16)
            } else if size == 0 {
                size = range.upperBound - position
            }
            guard size >= header, size <= range.upperBound - position else { return }
            let payload = (position + header)..<(position + size)
            switch type {
            case "meta", "iref": walkBoxes(bytes, (payload.lowerBound + 4)..<payload.upperBound, depth: depth + 1)
            case "iprp", "ipco", "dinf": walkBoxes(bytes, payload, depth: depth + 1)
            case "iinf":
                let countSize = bytes[payload.lowerBound] == 0 ? 2 : 4
                add(payload.lowerBound + 4, countSize, false, .count)
                walkBoxes(bytes, (payload.lowerBound + 4 + countSize)..<payload.upperBound, depth: depth + 1)
            case "iloc": walkItemLocations(bytes, payload)
            case "ipma": walkAssociations(bytes, payload)
            case "auxl", "dimg", "thmb", "cdsc", "base":  // iref's references: from, count, to
                for at in stride(from: payload.lowerBound, to: payload.upperBound - 1, by: 2) {
                    add(at, 2, false, at == payload.lowerBound + 2 ? .count : .identifier)
                }
            case "auxC":  // the last character of its type URN ("...auxid:2"): depth becomes alpha, or nothing known
                if let end = bytes[payload].firstIndex(of: 0), end > payload.lowerBound + 4 { add(end - 1, 1, false, .identifier) }
            default: break
            }
            position += size
        }
    }

    /// The entries of `ipma`: item IDs, association counts and property indices.
    private mutating func walkAssociations(_ bytes: [UInt8], _ payload: Range<Int>) {
        func read(_ at: Int, _ size: Int) -> Int? { at + size <= payload.upperBound ? Self.read(bytes, at, size, false) : nil }
        guard let version = read(payload.lowerBound, 1), let flags = read(payload.lowerBound + 1, 3),
              let entries = read(payload.lowerBound + 4, 4) else { return }
        let (idSize, indexSize) = (version < 1 ? 2 : 4, flags & 1 == 1 ? 2 : 1)
        add(payload.lowerBound + 4, 4, false, .count)
        var position = payload.lowerBound + 8
        for _ in 0..<min(entries, 256) {
            guard let associations = read(position + idSize, 1) else { return }
            add(position, idSize, false, .identifier)
            add(position + idSize, 1, false, .count)
            position += idSize + 1
            for _ in 0..<associations where position + indexSize <= payload.upperBound {
                add(position, indexSize, false, .identifier)
                position += indexSize
            }
        }
    }

    /// The base offsets, extent offsets and extent lengths of `iloc`.
    private mutating func walkItemLocations(_ bytes: [UInt8], _ payload: Range<Int>) {
        func read(_ at: Int, _ size: Int) -> Int? { at + size <= payload.upperBound ? Self.read(bytes, at, size, false) : nil }
        guard let version = read(payload.lowerBound, 1), version <= 2, let sizes = read(payload.lowerBound + 4, 1),
              let more = read(payload.lowerBound + 5, 1) else { return }
        let (offsetSize, lengthSize, baseSize, indexSize) = (sizes >> 4, sizes & 0xF, more >> 4, version >= 1 ? more & 0xF : 0)
        let idSize = version < 2 ? 2 : 4
        var position = payload.lowerBound + 6
        guard let items = read(position, idSize) else { return }
        add(position, idSize, false, .count)
        position += idSize
        for _ in 0..<min(items, 256) {
            position += idSize + (version >= 1 ? 2 : 0) + 2
            if baseSize > 0 { add(position, baseSize, false, .offset) }
            position += baseSize
            guard let extents = read(position, 2) else { return }
            add(position, 2, false, .count)
            position += 2
            for _ in 0..<min(extents, 64) {
                position += indexSize
                if offsetSize > 0 { add(position, offsetSize, false, .offset) }
                if lengthSize > 0 { add(position + offsetSize, lengthSize, false, .count) }
                position += offsetSize + lengthSize
            }
        }
    }
}
