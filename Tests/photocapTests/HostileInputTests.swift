#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// Hostile inputs at the command line: files that declare pictures past the pixel budget,
/// sizes that overflow, text with terminal escapes, paths that are no regular file.
@Suite(.serialized) struct HostileInputTests {
    /// What a refusal may cost: a second for a file declaring a huge picture, in CPU
    /// seconds (a debug build among parallel suites on 2 cores can wait longer than that for
    /// the CPU), and a wall-clock bound well below any allocation of gigabytes.
    static let refusalSeconds = 1.0
    static let refusalWallSeconds = 5.0
    static let refusalBytes = 200 * 1024 * 1024

    static func photocap(_ arguments: [String], deadline: Double = 30) throws -> MeasuredRun {
        try MeasuredRun.run(TestPaths.photocap, arguments, deadline: deadline)
    }

    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    // MARK: Pixel budget

    struct Bomb: Sendable, CustomTestStringConvertible {
        let format: String
        let width: Int, height: Int
        let command: [String]  // with FILE and OUT placeholders
        var testDescription: String { "\(format) declaring \(width)x\(height): \(command.first!)" }
    }

    static let bombs: [Bomb] = [
        Bomb(format: "jpeg", width: 65500, height: 65500, command: ["orient", "FILE", "--output", "OUT"]),
        Bomb(format: "jpeg", width: 65500, height: 65500, command: ["orient", "FILE", "--output", "OUT", "--lossless"]),
        Bomb(format: "jpeg", width: 20000, height: 20000, command: ["orient", "FILE", "--output", "OUT"]),
        Bomb(format: "jpeg", width: 65500, height: 65500,
             command: ["shoot", "--frame-file", "FILE", "--frame-format", "mjpeg", "--frame-size", "64x64", "--output", "OUT/shot.jpg"]),
        Bomb(format: "tiff", width: 65535, height: 65535, command: ["orient", "FILE", "--output", "OUT"]),
        // A HEIC is decoded only to turn its pixels; without --pixels its irot is left to readers.
        Bomb(format: "heic", width: 30000, height: 30000, command: ["orient", "FILE", "--output", "OUT", "--pixels"]),
        // LibRaw itself refuses sides past 64000.
        Bomb(format: "dng", width: 20000, height: 20000, command: ["develop", "FILE", "--output", "OUT/"]),
    ]

    @Test("a file declaring a picture past the budget fails at once, in bounded memory, writing nothing",
          arguments: bombs)
    func bomb(_ bomb: Bomb) throws {
        let seeds = try HostileSeeds()
        let seed = try seeds.bytes(bomb.format)
        let crafted = switch bomb.format {
        case "jpeg": HostileSeeds.jpeg(seed, declaring: bomb.width, bomb.height)
        case "heic": HostileSeeds.heic(seed, declaring: bomb.width, bomb.height)
        default: HostileSeeds.tiff(seed, declaring: bomb.width, bomb.height)
        }
        let folder = try TemporaryDirectory("photocap-bomb")
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let file = try folder.write(crafted, named: "bomb.\(bomb.format)")
        let arguments = bomb.command.map { $0.replacingOccurrences(of: "FILE", with: file).replacingOccurrences(of: "OUT", with: output.path) }
        let run = try Self.photocap(arguments)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("declares \(bomb.width)x\(bomb.height) pixels"), "\(run.stderr)")
        #expect(run.stderr.contains("pixel budget of 268435456 pixels"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
        #expect(run.cpuSeconds < Self.refusalSeconds, "took \(run.cpuSeconds) s of CPU")
        #expect(run.seconds < Self.refusalWallSeconds, "took \(run.seconds) s")
        #expect(run.peakBytes < Self.refusalBytes, "peak \(run.peakBytes / 1_048_576) MB")
        #expect(try Self.files(in: output).isEmpty)
        #expect(try Self.files(in: folder.url) == ["bomb.\(bomb.format)", "out"])
    }

    @Test("--max-pixels: a legitimate file past a lowered budget is refused, and let through once it is raised")
    func raisingTheBudget() throws {
        let seeds = try HostileSeeds(size: 512)  // 262144 pixels
        let folder = try TemporaryDirectory("photocap-budget")
        for format in ["jpeg", "tiff", "heic"] {
            let pixels = format == "heic" ? ["--pixels"] : []  // a HEIC is decoded only to turn its pixels
            let refused = try Self.photocap(["orient", seeds.paths[format]!, "--output", folder.url.path, "--max-pixels", "200000"] + pixels)
            #expect(refused.status == 1 && refused.stderr.contains("512x512 pixels (0.3 MP), more than the pixel budget of 200000"),
                    "\(format): \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("seed.\(format)")))
            let raised = try Self.photocap(["orient", seeds.paths[format]!, "--output", folder.url.path, "--max-pixels", "262144"] + pixels)
            #expect(raised.status == 0, "\(format): \(raised.stderr)")
        }
        #expect(try Self.files(in: folder.url) == ["seed.heic", "seed.jpeg", "seed.tiff"])
        let dng = try Self.photocap(["develop", seeds.paths["dng"]!, "--output", folder.url.path + "/", "--max-pixels", "200000"])
        #expect(dng.status == 1 && dng.stderr.contains("pixel budget of 200000"), "\(dng.stderr)")
        let developed = try Self.photocap(["develop", seeds.paths["dng"]!, "--output", folder.url.path + "/", "--max-pixels", "262144"])
        #expect(developed.status == 0, "\(developed.stderr)")
    }

    // MARK: Lengths declared by files

    /// A PNG of `width` x `height` 8-bit RGB whose one IDAT holds `data` (no valid stream needed:
    /// nothing should get that far). Chunk CRCs computed, as libpng checks them.
    static func png(declaring width: Int, _ height: Int, data: [UInt8] = [0x78, 0x9C, 0x03, 0x00]) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + payload
            return word(payload.count) + typed + word(Int(PNGChecksum.crc32(typed)))
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", word(width) + word(height) + [8, 2, 0, 0, 0])
            + chunk("IDAT", data) + chunk("IEND", [])
    }

    /// A portrait-style JPEG whose extended XMP (named by xmpNote:HasExtendedXMP) has one
    /// 12-byte chunk declaring a full length of `fullLength`.
    static func extendedXMP(declaring fullLength: UInt32, in jpeg: [UInt8]) -> [UInt8] {
        let guid = "0123456789ABCDEF0123456789ABCDEF"
        let standard = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmpNote:HasExtendedXMP="\(guid)"/>\
            </rdf:RDF></x:xmpmeta>
            """
        let payload = Array("http://ns.adobe.com/xmp/extension/\0".utf8) + Array(guid.utf8)
            + (0..<4).map { UInt8(truncatingIfNeeded: fullLength >> (24 - 8 * UInt32($0))) } + [0, 0, 0, 0] + Array("<x:xmpmeta/>".utf8)
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        let withStandard = inserting(xmp: standard, into: jpeg)
        return Array(withStandard[..<2]) + segment + Array(withStandard[2...])
    }

    struct DeclaredLength: Sendable, CustomTestStringConvertible {
        let name: String
        let command: [String]  // with FILE, OUT and GOLDEN placeholders
        let status: Int32
        let message: String
        var testDescription: String { "\(name): \(command.first!)" }
    }

    static let declaredLengths: [DeclaredLength] = [
        DeclaredLength(name: "extended XMP of 0xFFFFFFFF bytes", command: ["orient", "FILE", "--output", "OUT"], status: 0,
                       message: "stops at byte 12 of 4294967295): it is dropped"),
        DeclaredLength(name: "extended XMP of 0x7FFFFFFF bytes", command: ["orient", "FILE", "--output", "OUT"], status: 0,
                       message: "stops at byte 12 of 2147483647): it is dropped"),
        DeclaredLength(name: "PNG of 16384x16384", command: ["compare", "FILE", "GOLDEN"], status: 2,
                       message: "more than its 61 bytes can hold"),
        DeclaredLength(name: "TIFF of 16384x16384", command: ["compare", "FILE", "GOLDEN"], status: 2, message: "libtiff"),
        DeclaredLength(name: "TIFF of 16384x16384", command: ["orient", "FILE", "--output", "OUT"], status: 1, message: "libtiff"),
    ]

    @Test("a length or size a file declares is bounded by what the file holds before memory is sized",
          arguments: declaredLengths)
    func declaredLengthsAreBoundedByTheFile(_ declared: DeclaredLength) throws {
        let seeds = try HostileSeeds()
        let folder = try TemporaryDirectory("photocap-declared")
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let file: String
        switch declared.name {
        case let name where name.hasPrefix("extended XMP"):
            let length: UInt32 = name.contains("0xFFFFFFFF") ? 0xFFFF_FFFF : 0x7FFF_FFFF
            file = try folder.write(Self.extendedXMP(declaring: length, in: try seeds.bytes("jpeg")), named: "portrait.jpg")
        case let name where name.hasPrefix("PNG"):
            file = try folder.write(Self.png(declaring: 16384, 16384), named: "bomb.png")
        default:
            file = try folder.write(HostileSeeds.tiff(try seeds.bytes("tiff"), declaring: 16384, 16384), named: "bomb.tiff")
        }
        let golden = try folder.write(Self.png(declaring: 64, 64), named: "golden.png")
        let arguments = declared.command.map {
            $0.replacingOccurrences(of: "FILE", with: file).replacingOccurrences(of: "OUT", with: output.path)
                .replacingOccurrences(of: "GOLDEN", with: golden)
        }
        let (run, peak) = try MeasuredRun.runTimed(TestPaths.photocap, arguments, deadline: 60)
        #expect(run.status == declared.status, "\(run.stderr)")
        #expect(run.stderr.contains(declared.message), "\(run.stderr)")
        #expect(peak < Self.refusalBytes, "peak \(peak / 1_048_576) MB (/usr/bin/time)")
        #expect(run.seconds < Self.refusalWallSeconds, "took \(run.seconds) s")
    }

    // MARK: Sizes from the command line

    @Test("a frame size whose byte count overflows is refused with a message, not a crash",
          arguments: ["4294967296x4294967296", "3037000500x3037000500", "9223372036854775807x2"])
    func overflowingFrameSize(_ size: String) throws {
        let folder = try TemporaryDirectory("photocap-overflow")
        let frame = try folder.write([UInt8](repeating: 0x80, count: 32), named: "frame.yuv")
        for budget in ["268435456", "9223372036854775807"] {
            let run = try Self.photocap(["shoot", "--frame-file", frame, "--frame-format", "yuyv", "--frame-size", size,
                                         "--max-pixels", budget, "--output", folder.path("x.jpg")])
            #expect(run.signal == nil && run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("declares \(size) pixels") && run.stderr.contains("more than the pixel budget"),
                    "\(run.stderr)")
        }
        #expect(try Self.files(in: folder.url) == ["frame.yuv"])
    }

    // MARK: Text from files

    @Test("terminal escapes in HEIF brands are printed escaped by info and orient")
    func escapesInBrands() throws {
        let folder = try TemporaryDirectory("photocap-escapes")
        // ftyp: size 24, major brand ESC [ 3 1 (ESC[31m turns a terminal red), minor 0, compatible "m\u{7}\u{1B}]".
        let ftyp: [UInt8] = [0, 0, 0, 24] + Array("ftyp".utf8) + [0x1B, 0x5B, 0x33, 0x31] + [0, 0, 0, 0]
            + [0x6D, 0x07, 0x1B, 0x5D] + Array("mif1".utf8)
        let file = try folder.write(ftyp + [0, 0, 0, 8] + Array("mdat".utf8), named: "brands.heic")
        for arguments in [["info", file], ["orient", file, "--output", folder.url.path]] {
            let run = try Self.photocap(arguments)
            #expect(run.status == 1)
            #expect(!run.stderr.utf8.contains(0x1B) && !run.stderr.utf8.contains(0x07), "raw control bytes: \(Array(run.stderr.utf8))")
            #expect(run.stderr.contains("\\u{1B}[31") && run.stderr.contains("\\u{7}"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test("EXIF text with control characters keeps info --json valid JSON and reaches no terminal raw")
    func escapesInEXIF() throws {
        // ESC ] 0 ; BEL (a window title) + "cap".
        let run = try Self.infoJSON(makeStartingWith: [0x1B, 0x5D, 0x30, 0x3B, 0x07])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains(0x1B) && !run.stdout.contains(0x07))
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let exif = try #require(object["exif"] as? [String: String])
        #expect(exif["Make"] == "\u{1B}]0;\u{7}cap", "\(exif)")
    }

    @Test("DEL and C1 controls in EXIF text are escaped by info --json, which stays valid JSON")
    func escapesDELAndC1InJSON() throws {
        // DEL, CSI as the one C1 character U+009B (UTF-8 C2 9B), "1m" + "cap".
        let run = try Self.infoJSON(makeStartingWith: [0x7F, 0xC2, 0x9B, 0x31, 0x6D])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains(0x7F), "a raw DEL byte: \(Array(run.stdout))")
        #expect(!run.stdout.contains(0x9B), "a raw C1 byte: \(Array(run.stdout))")
        let text = String(decoding: run.stdout, as: UTF8.self)
        #expect(text.contains("\\u007F"), "\(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let exif = try #require(object["exif"] as? [String: String])
        let value = try #require(exif["Make"])
        #expect(value.unicodeScalars.first == "\u{7F}" && value.hasSuffix("1mcap"), "\(value.unicodeScalars.map(\.value))")
    }

    @Test("a TIFF whose strips overlap its directory is refused by name and left as it was, by orient, info and compare")
    func stripOverlappingDirectory() throws {
        var tiff = try HostileSeeds().bytes("tiff")
        // Little-endian ("II"), as libtiff writes on this machine, with IFD0 after the strips:
        // move strip 0 (StripOffsets' first value, tag 273) to end with the file, so it runs
        // over IFD0's directory or the values behind it, as the fuzz's file did.
        try #require(tiff[0] == 0x49)
        func integer(_ at: Int, _ count: Int) -> Int { Self.integer(tiff, at, count) }
        let (offsetAt, offsetSize) = try Self.value(ofTag: 273, in: tiff).values
        let (lengthAt, lengthSize) = try Self.value(ofTag: 279, in: tiff).values
        let moved = tiff.count - integer(lengthAt, lengthSize)
        try #require(moved >= 8 && integer(4, 4) > integer(offsetAt, offsetSize))
        for byte in 0..<offsetSize { tiff[offsetAt + byte] = UInt8(truncatingIfNeeded: moved >> (8 * byte)) }
        let folder = try TemporaryDirectory("photocap-tiff-overlap")
        let file = try folder.write(tiff, named: "overlap.tif")

        let orient = try Self.photocap(["orient", file, "--in-place"])
        #expect(orient.status == 1, "status \(String(describing: orient.status)): \(orient.stderr)")
        #expect(orient.stderr.contains("strip 0 (bytes \(moved)..<\(tiff.count)) overlaps "), "\(orient.stderr)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))) == tiff, "the file was changed")
        // The readers of the same file end with a status, never a signal.
        for arguments in [["info", file], ["compare", file, file]] {
            let run = try Self.photocap(arguments)
            #expect(run.signal == nil && run.status != nil, "\(arguments[0]) ended by signal \(String(describing: run.signal)): \(run.stderr)")
        }
    }

    @Test("a TIFF whose next-IFD link points into its pixels is refused, not turned into a file ImageMagick rejects")
    func staleNextDirectoryLink() throws {
        let source = TestPaths.testImages.appendingPathComponent("third-party/pillow-tiff-orientation/g4_orientation_6.tif")
        var tiff = [UInt8](try Data(contentsOf: source))
        // Little-endian: IFD0's next-directory link, after its entries, set to byte 8 (strip data).
        try #require(tiff[0] == 0x49)
        func integer(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(tiff[at + $1]) << (8 * $1) } }
        let link = integer(4, 4) + 2 + integer(integer(4, 4), 2) * 12
        try #require(integer(link, 4) == 0)
        tiff[link] = 8
        let folder = try TemporaryDirectory("photocap-tiff-link")
        let file = try folder.write(tiff, named: "link.tif")
        // The damage is real to a third-party reader.
        #expect(try ExternalTool.run("identify", [file]).status != 0)

        let output = try TemporaryDirectory("photocap-tiff-link-out")
        for arguments in [["orient", file, "--output", output.url.path], ["orient", file, "--in-place"]] {
            let run = try Self.photocap(arguments)
            #expect(run.status == 1, "\(arguments.last!): status \(String(describing: run.status)): \(run.stderr)")
            #expect(run.stderr.contains("the file is damaged") && run.stderr.contains("directory 2"), "\(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.url.path) == [])
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))) == tiff, "the file was changed")
    }

    /// A little-endian integer of a test file.
    static func integer(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }

    /// Where IFD0's entry for `tag` is in a little-endian TIFF, and where its values are and the
    /// size of each (SHORT or LONG).
    static func value(ofTag tag: Int, in tiff: [UInt8]) throws -> (entry: Int, values: (at: Int, size: Int)) {
        let directory = integer(tiff, 4, 4)
        let entry = try #require((0..<integer(tiff, directory, 2)).map { directory + 2 + $0 * 12 }.first { integer(tiff, $0, 2) == tag })
        let size = integer(tiff, entry + 2, 2) == 3 ? 2 : 4
        return (entry, (integer(tiff, entry + 4, 4) * size <= 4 ? entry + 8 : integer(tiff, entry + 8, 4), size))
    }

    /// Expects `orient` (to a folder and in place) to refuse `tiff`, which ImageMagick rejects,
    /// with an error that says `reason`, writing nothing and leaving the file as it was.
    static func expectRefused(_ tiff: [UInt8], _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try TemporaryDirectory("photocap-tiff-damaged")
        let file = try folder.write(tiff, named: "damaged.tif")
        // The damage is real to a third-party reader.
        #expect(try ExternalTool.run("identify", [file]).status != 0, sourceLocation: sourceLocation)
        let output = try TemporaryDirectory("photocap-tiff-damaged-out")
        for arguments in [["orient", file, "--output", output.url.path], ["orient", file, "--in-place"]] {
            let run = try photocap(arguments)
            #expect(run.status == 1, "\(arguments.last!): status \(String(describing: run.status)): \(run.stderr)", sourceLocation: sourceLocation)
            #expect(run.stderr.contains(reason) && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.url.path) == [], sourceLocation: sourceLocation)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))) == tiff, "the file was changed", sourceLocation: sourceLocation)
    }

    @Test("a TIFF whose next directory (IFD1) lies in its strip data is refused by name, not written over")
    func nextDirectoryInStripData() throws {
        var tiff = try HostileSeeds().bytes("tiff")
        try #require(tiff[0] == 0x49)
        // A valid IFD1 (a copy of IFD0, ending the chain) put at the start of strip 0, and linked.
        let directory = Self.integer(tiff, 4, 4)
        let length = 2 + Self.integer(tiff, directory, 2) * 12
        let (offsetAt, offsetSize) = try Self.value(ofTag: 273, in: tiff).values
        let (lengthAt, lengthSize) = try Self.value(ofTag: 279, in: tiff).values
        let strip = Self.integer(tiff, offsetAt, offsetSize)
        try #require(Self.integer(tiff, lengthAt, lengthSize) >= length + 4 && strip % 2 == 0)
        tiff.replaceSubrange(strip..<(strip + length + 4), with: tiff[directory..<(directory + length)] + [0, 0, 0, 0])
        tiff.replaceSubrange((directory + length)..<(directory + length + 4), with: (0..<4).map { UInt8(truncatingIfNeeded: strip >> (8 * $0)) })
        let folder = try TemporaryDirectory("photocap-tiff-ifd1")
        let file = try folder.write(tiff, named: "ifd1.tif")
        let run = try Self.photocap(["orient", file, "--in-place"])
        #expect(run.status == 1, "status \(String(describing: run.status)): \(run.stderr)")
        #expect(run.stderr.contains("strip 0 (bytes \(strip)..<") && run.stderr.contains("overlaps IFD1's directory"), "\(run.stderr)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))) == tiff, "the file was changed")
    }

    @Test("a TIFF whose EXIF directory link leads outside the file or to nothing is refused, not copied into the result",
          arguments: [0, 0xFFFF_FFFF])
    func exifDirectoryLinkDamaged(_ offset: Int) throws {
        var tiff = try HostileSeeds().bytes("tiff")
        try #require(tiff[0] == 0x49)
        // The shape the structure fuzz found: IFD0's ExifIFD (34665) pointing at byte 0 or past the end.
        let link = try Self.value(ofTag: 34665, in: tiff).values.at
        for byte in 0..<4 { tiff[link + byte] = UInt8(truncatingIfNeeded: offset >> (8 * byte)) }
        try Self.expectRefused(tiff, "the EXIF directory at byte \(offset)")
    }

    @Test("a TIFF whose PhotometricInterpretation libtiff ignores (type or count changed) is refused, not turned",
          arguments: [(type: 16, count: 1), (type: 15, count: 1), (type: 3, count: 2)])
    func photometricDamaged(_ damage: (type: Int, count: Int)) throws {
        var tiff = try HostileSeeds().bytes("tiff")
        try #require(tiff[0] == 0x49)
        // The shapes the structure fuzz found: the entry's type or count rewritten, its value 2 (RGB) kept.
        let entry = try Self.value(ofTag: 262, in: tiff).entry
        tiff.replaceSubrange((entry + 2)..<(entry + 8), with: [UInt8(damage.type), 0, UInt8(damage.count), 0, 0, 0])
        try Self.expectRefused(tiff, "PhotometricInterpretation is missing or damaged")
    }

    @Test("a HEIF box whose 64-bit size overflows any offset is refused with one error line, not a trap",
          arguments: [UInt64(Int.max) - 7, UInt64(Int.max), UInt64.max])
    func overflowingBoxSize(_ size: UInt64) throws {
        // A trailing free box (which libheif reads past) of size 1 with the 64-bit size after its type.
        let heic = try HostileSeeds().bytes("heic") + [0, 0, 0, 1] + Array("free".utf8)
            + (0..<8).map { UInt8(truncatingIfNeeded: size >> (8 * (7 - $0))) } + [UInt8](repeating: 0, count: 8)
        let folder = try TemporaryDirectory("photocap-heif-size")
        let file = try folder.write(heic, named: "size.heic")
        let output = try TemporaryDirectory("photocap-heif-size-out")
        for arguments in [["info", file], ["orient", file, "--output", output.url.path, "--from-exif", "--pixels"], ["orient", file, "--in-place"]] {
            let run = try Self.photocap(arguments)
            #expect(run.status == 1 && run.stderr.hasPrefix("photocap: error: ") && run.stderr.split(separator: "\n").count == 1,
                    "\(arguments): status \(String(describing: run.status)), signal \(String(describing: run.signal)): \(run.stderr)")
        }
    }

    /// `info --json` of the seed JPEG whose EXIF Make, "photocap", starts with `bytes` instead
    /// of its first five.
    /// `jpeg` with `packet` as its XMP, in an APP1 segment after the JFIF one.
    static func inserting(xmp packet: String, into jpeg: [UInt8]) -> [UInt8] {
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(packet.utf8)
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        let at = jpeg[2..<4] == [0xFF, 0xE0] ? 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5])) : 2
        return Array(jpeg[..<at]) + segment + Array(jpeg[at...])
    }

    @Test("XMP declaring nested entities (billion laughs) is turned at once: no document type is parsed")
    func entityExpansionInXMP() throws {
        let folder = try TemporaryDirectory("photocap-laughs")
        let base = folder.path("base.jpg")
        try ExternalTool.run("convert", ["-size", "64x48", "gradient:red-blue", base]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", base]).checked()
        // 10^9 "lol"s in the extended-XMP GUID that the companion-picture reader looks up.
        let entities = "<!ENTITY lol0 \"lol\">" + (1...9).map { "<!ENTITY lol\($0) \"\(String(repeating: "&lol\($0 - 1);", count: 10))\">" }.joined()
        let packet = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <!DOCTYPE x:xmpmeta [\(entities)]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmpNote:HasExtendedXMP="&lol9;"/>
            </rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """
        let jpeg = Self.inserting(xmp: packet, into: [UInt8](try Data(contentsOf: URL(fileURLWithPath: base))))
        let file = try folder.write(jpeg, named: "laughs.jpg")
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let run = try Self.photocap(["orient", file, "--output", output.path], deadline: 60)
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(String(decoding: run.stdout, as: UTF8.self).contains("orientation 6 -> 1 (48x64)"))
        #expect(run.seconds < Self.refusalWallSeconds, "took \(run.seconds) s")
        #expect(run.peakBytes < Self.refusalBytes, "peak \(run.peakBytes / 1_048_576) MB")
    }

    @Test("a clip header's text reaches no terminal raw: shoot and watch escape it in one error format")
    func escapesInClipHeader() throws {
        let folder = try TemporaryDirectory("photocap-clip-escapes")
        // ESC ] 0 ; ... BEL sets a terminal's window title; CR would overwrite the line.
        let header = Array("YUV4MPEG2 W64 H64 F".utf8) + [0x1B, 0x5D, 0x30, 0x3B] + Array("owned".utf8) + [0x07, 0x0D]
            + Array(":1 Ip A1:1 C420jpeg\nFRAME\n".utf8)
        let clip = try folder.write(header + [UInt8](repeating: 128, count: 64 * 64 * 3 / 2), named: "title.y4m")
        for arguments in [["shoot", "--frame-file", clip, "--output", folder.path("x.jpg")],
                          ["watch", "--frame-file", clip, "--duration", "1"]] {
            let run = try Self.photocap(arguments, deadline: 10)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("photocap: error: "), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("F parameter '\\u{1B}]0;owned\\u{7}\\u{D}:1' is invalid"), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.utf8.contains(0x1B) && !run.stderr.utf8.contains(0x07) && !run.stderr.utf8.contains(0x0D),
                    "\(arguments): raw control bytes: \(Array(run.stderr.utf8))")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
        }
    }

    static func infoJSON(makeStartingWith bytes: [UInt8]) throws -> MeasuredRun {
        var jpeg = try HostileSeeds().bytes("jpeg")
        let make = Array("photocap".utf8)
        let at = try #require((0..<jpeg.count - make.count).first { Array(jpeg[$0..<$0 + make.count]) == make })
        jpeg.replaceSubrange(at..<at + bytes.count, with: bytes)
        let folder = try TemporaryDirectory("photocap-exif")
        return try photocap(["info", try folder.write(jpeg, named: "make.jpg"), "--json"])
    }

    // MARK: What the path names

    @Test("a device, a FIFO, a directory, an empty file and a truncated file are named as such")
    func pathMessages() throws {
        let folder = try TemporaryDirectory("photocap-paths")
        let fifo = folder.path("pipe.jpg")
        #expect(mkfifo(fifo, 0o600) == 0)
        let empty = try folder.write([], named: "empty.jpg")
        let seeds = try HostileSeeds()
        let jpeg = try seeds.bytes("jpeg")
        let truncated = try folder.write(Array(jpeg.prefix(jpeg.count - 200)), named: "cut.jpg")
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let cases: [(String, String)] = [
            ("/dev/zero", "/dev/zero: it is a character device, not a regular file"),
            (fifo, "\(fifo): it is a FIFO (named pipe), not a regular file"),
            (folder.url.path, "\(folder.url.path): it is a directory, not a file"),
            (empty, "\(empty): the file is empty (0 bytes)"),
            (truncated, "\(truncated): the JPEG file is truncated at byte \(jpeg.count - 200)"),
        ]
        // A folder given to orient is searched for photos (batch orient); one without any is named.
        let bare = folder.url.appendingPathComponent("bare")
        try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
        let searched = try Self.photocap(["orient", bare.path, "--recursive", "--output", output.path], deadline: 10)
        #expect(searched.status == 1 && searched.stderr == "photocap: error: \(bare.path): no JPEG, HEIC, TIFF or RAW files in this folder or its subfolders\n",
                "\(searched.stderr)")
        for (path, message) in cases {
            let orientedPath = path == folder.url.path ? nil : path
            guard let orientedPath else {
                let info = try Self.photocap(["info", path], deadline: 10)
                #expect(info.status == 1 && info.stderr.contains(message.split(separator: ":", maxSplits: 1)[1]), "\(info.stderr)")
                continue
            }
            let orient = try Self.photocap(["orient", orientedPath, "--output", output.path], deadline: 10)
            #expect(orient.status == 1 && orient.stderr.hasPrefix("photocap: error: \(message)"), "\(orient.stderr)")
            let info = try Self.photocap(["info", path], deadline: 10)
            #expect(info.status == 1 && info.stderr.contains(message.split(separator: ":", maxSplits: 1)[1]), "\(info.stderr)")
        }
        let develop = try Self.photocap(["develop", "/dev/zero", "--output", output.path + "/"], deadline: 10)
        #expect(develop.status == 1 && develop.stderr.contains("it is a character device, not a regular file"), "\(develop.stderr)")
        let frame = try Self.photocap(["shoot", "--frame-file", fifo, "--frame-format", "yuyv", "--frame-size", "4x4",
                                       "--output", output.appendingPathComponent("x.jpg").path], deadline: 10)
        #expect(frame.status == 1 && frame.stderr.contains("it is a FIFO (named pipe), not a regular file"), "\(frame.stderr)")
        #expect(try Self.files(in: output).isEmpty)
    }

    @Test("a FIFO or a directory named as a clip is refused at once by shoot and watch, as the other readers refuse them")
    func clipPathsThatAreNoFiles() throws {
        let folder = try TemporaryDirectory("photocap-clip-paths")
        let fifo = folder.path("pipe.y4m")
        #expect(mkfifo(fifo, 0o600) == 0)
        let directory = folder.url.appendingPathComponent("folder.y4m")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for (path, reason) in [(fifo, "it is a FIFO (named pipe), not a regular file"), (directory.path, "it is a directory, not a file")] {
            for arguments in [["shoot", "--frame-file", path, "--output", output.appendingPathComponent("x.jpg").path],
                              ["watch", "--frame-file", path, "--duration", "1"]] {
                let run = try Self.photocap(arguments, deadline: 10)
                #expect(!run.timedOut && run.status == 1, "\(arguments): \(run.stderr)")
                #expect(run.stderr.contains("cannot play clip \(path): \(reason)"), "\(arguments): \(run.stderr)")
            }
        }
        #expect(try Self.files(in: output).isEmpty)
    }

    @Test("watch fails, as shoot does, on a clip whose first frame is cut short")
    func clipWithACutShortFirstFrame() throws {
        let folder = try TemporaryDirectory("photocap-clip-cut")
        let clip = try folder.write(Array("YUV4MPEG2 W64 H48 F30:1 Ip A1:1 C420jpeg\nFRAME\n".utf8) + [UInt8](repeating: 128, count: 1000),
                                    named: "cut.y4m")
        for arguments in [["shoot", "--frame-file", clip, "--output", folder.path("x.jpg")],
                          ["watch", "--frame-file", clip, "--duration", "3"]] {
            let run = try Self.photocap(arguments, deadline: 20)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("photocap: error: ") && run.stderr.contains("frame 0 is truncated: 1000 of 4608 bytes"),
                    "\(arguments): \(run.stderr)")
        }
        #expect(try Self.files(in: folder.url) == ["cut.y4m"])
    }

    // MARK: Small RAW frames

    @Test("a DNG is written for RAW frames smaller than LibRaw develops (its preview developed padded)",
          arguments: ["16x16", "2x2", "6x4", "20x22"])
    func smallRawFrame(_ size: String) throws {
        let dimensions = size.split(separator: "x").map { Int($0)! }
        let folder = try TemporaryDirectory("photocap-small-raw")
        let frame = try folder.write((0..<dimensions[0] * dimensions[1] * 2).map { UInt8(truncatingIfNeeded: $0 * 37) }, named: "frame.raw")
        let dng = folder.path("small.dng")
        let run = try Self.photocap(["shoot", "--frame-file", frame, "--frame-format", "srggb16", "--frame-size", size,
                                     "--format", "dng", "--output", dng])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ExternalTool.exiftoolValidationProblems(dng).isEmpty)
        let tags = try ExternalTool.run("exiftool", ["-s3", "-SubIFD:ImageWidth", "-SubIFD:ImageHeight", "-IFD0:ImageWidth", dng])
        let values = tags.text.split(separator: "\n").map(String.init)
        #expect(values.prefix(2) == [String(dimensions[0]), String(dimensions[1])], "\(tags.text)")
        #expect(values.count == 3, "an IFD0 preview: \(tags.text)")
    }
}
