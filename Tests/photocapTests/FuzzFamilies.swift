import Foundation
import Testing
import TestSupport

/// The families a 49,625-run fuzz found problems in, each a set of real seed files (made by the
/// tools a camera or an editor would use) and a mutation aimed at the fields its readers
/// trust: extended XMP (chunk lengths, offsets, GUIDs), MPF (its index, by
/// ``StructureMutator``), XML entities (document types put into XMP), HEIC auxiliary boxes
/// (`auxC`, `iref`, `ipma`, by ``StructureMutator``), Y4M clips (header and frame headers)
/// and odd sizes (declared widths and heights, odd or one off).
enum FuzzFamilies {
    /// The family names ``FuzzTests/familyFuzz(_:)`` runs, each for its share of the time.
    static let names = ["extended-xmp", "mpf", "xml-entities", "heic-aux", "y4m", "odd-sizes"]

    /// The seed formats of family `name`; a format's file extension is ``fileExtension(of:)``.
    static func formats(of name: String) -> [String] {
        name == "odd-sizes" ? ["odd-jpeg", "odd-tiff", "odd-png", "odd-heic", "odd-jpeg-1x1"] : [name]
    }

    /// The extension a file of `format` is given, as the readers choose a decoder by it.
    static func fileExtension(of format: String) -> String {
        switch format {
        case "extended-xmp", "mpf", "xml-entities", "odd-jpeg", "odd-jpeg-1x1": "jpg"
        case "heic-aux", "odd-heic": "heic"
        case "odd-tiff": "tiff"
        case "odd-png": "png"
        case "y4m": "y4m"
        default: String(format.prefix { $0 != "-" })
        }
    }

    /// The seeds of family `name`, by format, made in `folder`.
    static func seeds(of name: String, in folder: TemporaryDirectory) throws -> [String: [UInt8]] {
        func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
        switch name {
        case "extended-xmp":
            // exiftool spreads a depth map this large over extended-XMP chunks, as an Android camera does.
            let (photo, _, _) = try DepthPortraitTests.portrait(in: folder, size: "320x240", depthBits: 16)
            return [name: try read(photo)]
        case "mpf":
            return [name: try read(try MultiPictureTests.makeMultiPicture(in: folder).path)]
        case "xml-entities":
            // The depth map in the standard packet: its XMP is read by the companion-picture parser.
            let (photo, _, _) = try DepthPortraitTests.portrait(in: folder, size: "64x48", depthBits: 8)
            return [name: try read(photo)]
        case "heic-aux":
            return [name: try read(try turnedHEIC(width: 64, height: 48, in: folder))]
        case "y4m":
            let clip = folder.path("clip.y4m")
            let photo = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
            try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-i", photo, "-vf", "scale=64:48,format=yuv420p", "-frames:v", "2",
                                            "-f", "yuv4mpegpipe", clip]).checked()
            return [name: try read(clip)]
        default:
            var seeds: [String: [UInt8]] = [:]
            for (format, size) in [("odd-jpeg", "63x47"), ("odd-tiff", "63x47"), ("odd-png", "63x47"), ("odd-jpeg-1x1", "1x1")] {
                let path = folder.path("\(format).\(fileExtension(of: format))")
                // 4:2:0, so the odd side leaves a chroma sample half outside the picture.
                try ExternalTool.run("convert", ["-size", size, "gradient:red-blue", "-sampling-factor", "2x2", "-quality", "90", path]).checked()
                if format != "odd-png" {
                    try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-Orientation=6", path]).checked()
                }
                seeds[format] = try read(path)
            }
            seeds["odd-heic"] = try read(try turnedHEIC(width: 63, height: 47, in: folder))
            return seeds
        }
    }

    /// A HEIC with a depth image (``DepthHEIC``) whose EXIF says Orientation 6 (its irot none),
    /// so that `--from-exif --pixels` turns the picture and its auxiliary image.
    static func turnedHEIC(width: Int, height: Int, in folder: TemporaryDirectory) throws -> String {
        let path = try DepthHEIC.make(bits: 8, width: width, height: height, in: folder)
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=6", path]).checked()
        return path
    }

    /// The readers a file of `format` is given to.
    static func readers(for format: String) -> [FuzzTests.Reader] {
        switch format {
        case "extended-xmp", "mpf", "xml-entities": [.info, .infoJSON, .orient, .lossless, .inPlace]
        case "heic-aux": [.info, .infoJSON, .heicPixels, .heicProperties]
        case "y4m": [.clipShoot, .clipShoot, .clipWatch]
        case "odd-jpeg", "odd-jpeg-1x1": [.orient, .lossless, .compare]
        case "odd-heic": [.heicPixels, .compare]
        case "odd-png": [.compare]
        default: [.orient, .compare]
        }
    }

    /// A mutation of `seed`, a file of `format`.
    static func mutated(_ format: String, _ seed: [UInt8], mutator: StructureMutator?, _ random: inout SeededGenerator) -> [UInt8] {
        switch format {
        case "extended-xmp": return extendedXMP(seed, &random)
        case "xml-entities": return entities(seed, &random)
        case "y4m": return clip(seed, &random)
        case "mpf", "heic-aux": return mutator!.mutated(seed, &random)
        default:
            var bytes = oddSize(format, seed, &random)
            // Now and then damage on top, so the odd size meets a cut or a flipped byte too.
            if Int.random(in: 0..<4, using: &random) == 0 { bytes = FuzzTests.mutated(bytes, &random) }
            return bytes
        }
    }

    // MARK: Extended XMP

    static let extendedSignature = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

    /// The APP1 segments of `jpeg` before its scan: where each starts and its length field.
    static func segments(_ jpeg: [UInt8]) -> [(start: Int, end: Int)] {
        var found: [(Int, Int)] = []
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
            let end = position + 2 + (Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3]))
            guard end <= jpeg.count else { break }
            found.append((position, end))
            position = end
        }
        return found
    }

    /// One to three of the extended-XMP chunks' fields rewritten: full length, offset, GUID,
    /// segment length; or a chunk dropped, repeated or moved before another.
    static func extendedXMP(_ seed: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let chunks = segments(bytes).filter { bytes[$0.start + 1] == 0xE1 && bytes[($0.start + 4)...].starts(with: extendedSignature) }
            guard let chunk = chunks.randomElement(using: &random) else { break }
            let guid = chunk.start + 4 + extendedSignature.count
            let (fullLength, offset) = (guid + 32, guid + 36)
            func word(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            func put(_ value: Int, at: Int) { for index in 0..<4 { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) } }
            switch Int.random(in: 0..<7, using: &random) {
            case 0: put([0, 1, 0xFFFF_FFFF, 0x7FFF_FFFF, word(fullLength) - 1, word(fullLength) + 1, word(fullLength) * 2]
                            .randomElement(using: &random)!, at: fullLength)
            case 1: put([0, 1, word(offset) - 1, word(offset) + 1, word(fullLength), word(fullLength) - 1, 0xFFFF_FFFF]
                            .randomElement(using: &random)!, at: offset)
            case 2: bytes[guid + Int.random(in: 0..<32, using: &random)] = [0x00, 0x30, 0x46, 0x7A, 0xFF].randomElement(using: &random)!
            case 3:  // the segment's length: short of its payload, or past it into the next marker
                let length = chunk.end - chunk.start - 2 + [-1, 1, -40, -41, 200].randomElement(using: &random)!
                bytes[chunk.start + 2] = UInt8(truncatingIfNeeded: max(2, length) >> 8)
                bytes[chunk.start + 3] = UInt8(truncatingIfNeeded: max(2, length))
            case 4: bytes.removeSubrange(chunk.start..<chunk.end)
            case 5: bytes.insert(contentsOf: bytes[chunk.start..<chunk.end], at: chunk.start)
            default:  // moved before the first chunk: the chunks out of order
                let moved = Array(bytes[chunk.start..<chunk.end])
                bytes.removeSubrange(chunk.start..<chunk.end)
                bytes.insert(contentsOf: moved, at: chunks[0].start)
            }
        }
        return bytes
    }

    // MARK: XML entities

    static let standardSignature = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// Document types that expand, reach outside the file or loop, as an attacker would write them.
    static func documentType(_ random: inout SeededGenerator) -> (declarations: String, reference: String) {
        switch Int.random(in: 0..<6, using: &random) {
        case 0:  // nested entities ("billion laughs"), 1 to 9 levels
            let levels = Int.random(in: 1...9, using: &random)
            return ("<!ENTITY e0 \"lol\">" + (1...levels).map { "<!ENTITY e\($0) \"\(String(repeating: "&e\($0 - 1);", count: 10))\">" }.joined(),
                    "&e\(levels);")
        case 1:  // one large entity referred to many times (quadratic blow-up)
            return ("<!ENTITY e \"\(String(repeating: "x", count: 20_000))\">", String(repeating: "&e;", count: 2_000))
        case 2: return ("<!ENTITY e SYSTEM \"file:///dev/zero\">", "&e;")
        case 3: return ("<!ENTITY e SYSTEM \"http://127.0.0.1:9/x.xml\">", "&e;")
        case 4: return ("<!ENTITY % p \"<!ENTITY e 'pe'>\"> %p;", "&e;")
        default: return ("<!ENTITY e \"&e;\">", "&e;")  // refers to itself
        }
    }

    /// The seed's standard XMP packet given a document type, its entity referred to in an
    /// attribute or in text, the segment's length fitted (or left short, now and then).
    static func entities(_ seed: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        guard let segment = segments(seed).first(where: { seed[$0.start + 1] == 0xE1 && seed[($0.start + 4)...].starts(with: standardSignature) })
        else { return seed }
        var packet = String(decoding: seed[(segment.start + 4 + standardSignature.count)..<segment.end], as: UTF8.self)
        let (declarations, reference) = documentType(&random)
        let root = packet.range(of: "<x:xmpmeta")?.lowerBound ?? packet.startIndex
        packet.insert(contentsOf: "<!DOCTYPE x:xmpmeta [\(declarations)]>", at: root)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: packet = packet.replacingOccurrences(of: "GDepth:Format=\"RangeInverse\"", with: "GDepth:Format=\"\(reference)\"")
        case 1: packet = packet.replacingOccurrences(of: "GDepth:Near=\"", with: "GDepth:Near=\"\(reference)")
        default: packet = packet.replacingOccurrences(of: "</rdf:RDF>", with: "<rdf:Description>\(reference)</rdf:Description></rdf:RDF>")
        }
        var payload = standardSignature + Array(packet.utf8)
        payload = Array(payload.prefix(65_533))
        let length = payload.count + 2 - (Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 1...64, using: &random) : 0)
        return Array(seed[..<segment.start]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(seed[segment.end...])
    }

    // MARK: Y4M

    /// The clip with its stream header's parameters or a frame header rewritten, cut or run on.
    static func clip(_ seed: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        guard let newline = seed.firstIndex(of: 0x0A) else { return seed }
        var tokens = String(decoding: seed[..<newline], as: UTF8.self).split(separator: " ").map(String.init)
        var rest = Array(seed[(newline + 1)...])
        let values: [Character: [String]] = [
            "W": ["0", "1", "3", "63", "65", "16384", "65536", "4294967296", "-64", "", "6x"],
            "H": ["0", "1", "47", "49", "16384", "65536", "4294967296", "-48", ""],
            "F": ["0:0", "1:0", "0:1", "30000:1001", "999999999999:1", "1:999999999999", "a:b", "25"],
            "C": ["420jpeg", "420mpeg2", "420paldv", "420", "422", "444", "mono", "444alpha", "bogus", ""],
            "I": ["p", "t", "b", "m", "?", ""],
            "A": ["0:0", "1:1", "-1:1", "x"],
        ]
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1, 2:  // a parameter's value
                let key = values.keys.randomElement(using: &random)!
                let value = key.description + values[key]!.randomElement(using: &random)!
                if let at = tokens.indices.dropFirst().first(where: { tokens[$0].first == key }) { tokens[at] = value } else { tokens.append(value) }
            case 3: if tokens.count > 1 { tokens.remove(at: Int.random(in: 1..<tokens.count, using: &random)) }
            case 4: if tokens.count > 1 { tokens.append(tokens[Int.random(in: 1..<tokens.count, using: &random)]) }
            case 5:  // a frame header given parameters, misspelt or unterminated
                if let frame = rest.firstRange(of: Array("FRAME\n".utf8)) {
                    let header = ["FRAME Ixyz\n", "FRAMX\n", "FRAME", "FRAME \(String(repeating: "X", count: 300))\n"].randomElement(using: &random)!
                    rest.replaceSubrange(frame, with: Array(header.utf8))
                }
            case 6: rest = Array(rest.prefix(Int.random(in: 0...rest.count, using: &random)))  // cut short
            default: rest += Array(rest.prefix(Int.random(in: 0...rest.count, using: &random)))  // a partial frame after the last
            }
        }
        return Array(tokens.joined(separator: " ").utf8) + [0x0A] + rest
    }

    // MARK: Odd sizes

    /// The seed declaring another size: odd sides, or one off its own. (Files declaring the
    /// pixel limit are the corpus's: a run of one takes seconds, the family's whole share.)
    static func oddSize(_ format: String, _ seed: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        func side() -> Int { [1, 2, 3, 7, 15, 17, 33, 47, 61, 62, 63, 64, 65, 127, 129].randomElement(using: &random)! }
        guard Int.random(in: 0..<3, using: &random) > 0 else { return seed }  // the seed itself: its output must be repeatable
        let (width, height) = (side(), side())
        switch format {
        case "odd-tiff": return HostileSeeds.tiff(seed, declaring: width, height)
        case "odd-heic": return HostileSeeds.heic(seed, declaring: width, height)
        case "odd-png": return HostileSeeds.png(seed, declaring: width, height)
        default: return HostileSeeds.jpeg(seed, declaring: width, height)
        }
    }
}

extension HostileSeeds {
    /// The PNG with its IHDR declaring `width` × `height`, its CRC made right again (libpng
    /// checks it, and a wrong one would stop every read before the size matters).
    static func png(_ png: [UInt8], declaring width: Int, _ height: Int) -> [UInt8] {
        var bytes = png
        guard bytes.count >= 33, bytes[12..<16].elementsEqual("IHDR".utf8) else { return bytes }
        for (index, value) in [width, height].enumerated() {
            for byte in 0..<4 { bytes[16 + index * 4 + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * byte)) }
        }
        let crc = PNGChecksum.crc32(bytes[12..<29])
        for byte in 0..<4 { bytes[29 + byte] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(byte))) }
        return bytes
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, as zlib computes it), for files crafted by tests.
enum PNGChecksum {
    /// The CRC of `bytes`, a chunk's type and data.
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
