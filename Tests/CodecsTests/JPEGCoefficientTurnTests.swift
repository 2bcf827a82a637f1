import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// Lossless turns through libjpeg's coefficient API in strips, judged by jpegtran doing the same
/// turn: the same coefficients decode (djpeg) to the same pixels, byte for byte.
@Suite("Lossless turns in strips")
struct JPEGCoefficientTurnTests {
    /// jpegtran's option for each turned orientation.
    static let jpegtranOperation: [Int: [String]] = [
        2: ["-flip", "horizontal"], 3: ["-rotate", "180"], 4: ["-flip", "vertical"], 5: ["-transpose"],
        6: ["-rotate", "90"], 7: ["-transverse"], 8: ["-rotate", "270"],
    ]

    /// A source JPEG made by cjpeg from a textured picture, with a comment and an APP marker added
    /// by wrjpgcom so the carried segments are seen too.
    static func source(_ size: PixelSize, cjpeg options: [String], in folder: TemporaryDirectory, named name: String) throws -> String {
        let picture = JPEGStripTests.textured(size)
        let ppm = try folder.write(Array("P6\n\(size.width) \(size.height)\n255\n".utf8) + picture.pixels, named: "\(name).ppm")
        let plain = folder.path("\(name)-plain.jpg"), path = folder.path("\(name).jpg")
        try ExternalTool.run("cjpeg", options + ["-quality", "85", "-outfile", plain, ppm]).checked()
        try ExternalTool.run("wrjpgcom", ["-comment", "kept by the turn", "-replace", plain]).checked().stdout
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    static func decoded(_ path: String) throws -> Data {
        try ExternalTool.run("djpeg", ["-pnm", path]).checked().stdout
    }

    @Test("every orientation, every sampling, baseline, progressive and restart-coded sources: jpegtran's pixels, exactly",
          arguments: [
            (["-sample", "2x2"], PixelSize(width: 160, height: 96)),        // 4:2:0, whole iMCUs
            (["-sample", "2x2"], PixelSize(width: 203, height: 117)),       // 4:2:0, partial iMCUs
            (["-sample", "2x1"], PixelSize(width: 176, height: 83)),        // 4:2:2
            (["-sample", "1x2"], PixelSize(width: 91, height: 128)),        // 4:4:0
            (["-sample", "1x1"], PixelSize(width: 72, height: 57)),         // 4:4:4
            (["-grayscale"], PixelSize(width: 99, height: 64)),             // one component
            (["-sample", "2x2", "-progressive"], PixelSize(width: 208, height: 144)),
            (["-sample", "2x2", "-restart", "3B"], PixelSize(width: 144, height: 112)),
          ])
    func matchesJpegtran(options: [String], size: PixelSize) throws {
        let folder = try TemporaryDirectory("coefficient-turn")
        let path = try Self.source(size, cjpeg: options, in: folder, named: "source")
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let geometry = try JPEGLosslessTransform.geometry(of: original)
        var turned = 0
        for value in 2...8 {
            let orientation = Orientation(exifValue: value)
            guard JPEGLosslessTransform.isExact(orientation, size: geometry.size, mcu: geometry.mcu) else { continue }
            let reference = folder.path("jpegtran-\(value).jpg")
            try ExternalTool.run("jpegtran", ["-perfect", "-copy", "all"] + Self.jpegtranOperation[value]! + ["-outfile", reference, path]).checked()
            for strips in [1, 2, 5, 12] {  // 12: more strips than MCU rows in some, RST0…RST7 wrapping in others
                let ours = try JPEGLosslessTransform.transform(original, applying: orientation, strips: strips)
                let oursPath = try folder.write(ours, named: "ours-\(value)-\(strips).jpg")
                let djpeg = try ExternalTool.run("djpeg", ["-pnm", oursPath]).checked()
                #expect(djpeg.stderr.isEmpty, "djpeg warned: \(djpeg.stderr)")
                let samePixels = djpeg.stdout == (try Self.decoded(reference))
                #expect(samePixels, "orientation \(value), \(strips) strips, \(options)")
                // More than one strip means restart markers joined them (this path, not tjTransform's).
                let markers = JPEGStripTests.restarts(in: ours).markers.count
                if strips > 1 { #expect(markers > 0, "orientation \(value): no restart markers with \(strips) strips") }
                // The comment segment rides along.
                #expect(ours.firstRange(of: Array("kept by the turn".utf8)) != nil)
            }
            turned += 1
        }
        // Transpose is always exact; the aligned 4:2:0 source takes all seven.
        #expect(turned >= 1)
        if size == PixelSize(width: 160, height: 96) { #expect(turned == 7) }
    }

    @Test("a picture whose turned coefficients pass 1 MiB gets more strips than threads, still jpegtran's pixels")
    func largePicturesTurnInMoreStrips() throws {
        // 4:4:4, 512x512: 262,144 pixels x 3 components x 2 bytes = 1.57 MB of turned coefficients,
        // held a strip at a time, so even one thread turns it in two strips joined by a restart.
        let folder = try TemporaryDirectory("coefficient-turn-large")
        let path = try Self.source(PixelSize(width: 512, height: 512), cjpeg: ["-sample", "1x1"], in: folder, named: "large")
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let reference = folder.path("jpegtran.jpg")
        try ExternalTool.run("jpegtran", ["-perfect", "-copy", "all", "-rotate", "90", "-outfile", reference, path]).checked()
        let ours = try JPEGLosslessTransform.transform(original, applying: .right, strips: 1)
        #expect(JPEGStripTests.restarts(in: ours).markers.count == 1, "one thread, two strips: one restart marker")
        let oursPath = try folder.write(ours, named: "ours.jpg")
        let samePixels = try Self.decoded(oursPath) == (try Self.decoded(reference))
        #expect(samePixels, "not jpegtran's pixels")
    }

    @Test("source arrays over 4 MiB, backed on another thread as the decode fills them: jpegtran's pixels")
    func largeSourceArraysAreBackedAhead() throws {
        // 4:2:0, 2048x1536: a luma array of 6.3 MB, which the turn backs ahead of the decode.
        let folder = try TemporaryDirectory("coefficient-turn-backed")
        let path = try Self.source(PixelSize(width: 2048, height: 1536), cjpeg: ["-sample", "2x2"], in: folder, named: "backed")
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for (orientation, option) in [(Orientation.right, ["-rotate", "90"]), (.down, ["-rotate", "180"])] {
            let reference = folder.path("jpegtran-\(orientation.exifValue).jpg")
            try ExternalTool.run("jpegtran", ["-perfect", "-copy", "all"] + option + ["-outfile", reference, path]).checked()
            let ours = try JPEGLosslessTransform.transform(original, applying: orientation, strips: 2)
            let oursPath = try folder.write(ours, named: "ours-\(orientation.exifValue).jpg")
            let samePixels = try Self.decoded(oursPath) == (try Self.decoded(reference))
            #expect(samePixels, "orientation \(orientation.exifValue)")
        }
    }

    /// The turn of `jpeg` with its coefficients read by the split decoder where it takes them, and
    /// by libjpeg alone: how the first was read, and both results.
    /// `same` compares the bytes outside `#expect`, whose report would diff megabytes.
    static func bothReads(_ jpeg: [UInt8], _ orientation: Orientation) throws
        -> (path: JPEGCoefficientTurn.EntropyDecode, same: Bool, split: [UInt8], warned: Bool) {
        let split = try #require(try JPEGCoefficientTurn(jpeg, orientation: orientation, strips: 2))
        let plain = try #require(try JPEGCoefficientTurn(jpeg, orientation: orientation, strips: 2, splitDecode: false))
        #expect(plain.entropyDecode == .libjpeg)
        #expect(split.readWithWarnings == plain.readWithWarnings)
        let splitBytes = try split.turned().jpeg, plainBytes = try plain.turned().jpeg
        return (split.entropyDecode, splitBytes == plainBytes, splitBytes, plain.readWithWarnings)
    }

    /// ``bothReads(_:_:)``, read again while the split read ran on one thread (up to four times,
    /// each read still compared): the second thread may find no core before the first passes the
    /// middle on a loaded machine, which is correct but not what the callers test.
    static func readsInTwoHalves(_ jpeg: [UInt8], _ orientation: Orientation, _ name: String) throws
        -> (path: JPEGCoefficientTurn.EntropyDecode, same: Bool, split: [UInt8], warned: Bool) {
        var reads = try bothReads(jpeg, orientation)
        for _ in 0..<4 where reads.path == .oneThread {
            #expect(reads.same, "\(name): the one-thread read differs")
            reads = try bothReads(jpeg, orientation)
        }
        return reads
    }

    @Test("a large baseline file is read on two threads: libjpeg's coefficients, byte for byte, every turn",
          arguments: [
            (["-sample", "2x2"], PixelSize(width: 1280, height: 960)),                 // 4:2:0, whole iMCUs
            (["-sample", "2x2", "-optimize"], PixelSize(width: 1203, height: 917)),   // partial iMCUs, own tables
            (["-sample", "2x1"], PixelSize(width: 1100, height: 800)),                 // 4:2:2
            (["-sample", "1x1"], PixelSize(width: 1024, height: 777)),                 // 4:4:4
            (["-grayscale"], PixelSize(width: 1500, height: 1001)),                    // one component
          ])
    func splitDecodeMatchesLibjpeg(options: [String], size: PixelSize) throws {
        let folder = try TemporaryDirectory("coefficient-turn-split")
        let path = try Self.source(size, cjpeg: options, in: folder, named: "split")
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let geometry = try JPEGLosslessTransform.geometry(of: original)
        for value in 1...8 {
            let orientation = Orientation(exifValue: value)
            guard JPEGLosslessTransform.isExact(orientation, size: geometry.size, mcu: geometry.mcu) else { continue }
            let reads = try Self.readsInTwoHalves(original, orientation, "orientation \(value), \(options)")
            #expect(reads.path == .twoThreads, "orientation \(value), \(options): read by \(reads.path)")
            #expect(!reads.warned)
            #expect(reads.same, "orientation \(value), \(options): the two reads differ")
        }
        // And judged apart from libjpeg's read: jpegtran's 90° turn decodes to the same pixels.
        guard JPEGLosslessTransform.isExact(.right, size: geometry.size, mcu: geometry.mcu) else { return }
        let reference = folder.path("jpegtran.jpg")
        try ExternalTool.run("jpegtran", ["-perfect", "-copy", "all", "-rotate", "90", "-outfile", reference, path]).checked()
        let ours = try folder.write(try Self.bothReads(original, .right).split, named: "ours.jpg")
        let same = try Self.decoded(ours) == (try Self.decoded(reference))
        #expect(same, "\(options): not jpegtran's pixels")
    }

    @Test("real photographs (recurser's 1800x1200 and 1200x1800): read in two halves, libjpeg's coefficients")
    func splitDecodeOfPhotographs() throws {
        let folder = TestPaths.testImages.appendingPathComponent("third-party/recurser-exif-orientation-examples")
        for name in (0...8).flatMap({ ["Landscape_\($0).jpg", "Portrait_\($0).jpg"] }) {
            let jpeg = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let reads = try Self.readsInTwoHalves(jpeg, .up, name)
            // Their scans end in a padding the second thread cannot decode: the end, not damage.
            #expect(reads.path == .twoThreads, "\(name): read by \(reads.path)")
            #expect(reads.same, "\(name): the two reads differ")
        }
    }

    @Test("restart markers, progression, data cut short or trailing garbage: libjpeg reads the file, and warns")
    func splitDecodeLeavesUnusualFilesToLibjpeg() throws {
        let folder = try TemporaryDirectory("coefficient-turn-split-refused")
        let size = PixelSize(width: 1280, height: 960)
        for options in [["-sample", "2x2", "-restart", "8B"], ["-sample", "2x2", "-progressive"]] {
            let path = try Self.source(size, cjpeg: options, in: folder, named: "refused")
            let reads = try Self.bothReads([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), .right)
            #expect(reads.path == .libjpeg, "\(options)")
            #expect(reads.same)
        }
        let path = try Self.source(size, cjpeg: ["-sample", "2x2"], in: folder, named: "plain")
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(original.suffix(2)) == [0xFF, 0xD9])
        let garbage = Array(original.dropLast(2)) + [0x12, 0x34, 0x56, 0xFF, 0xD9]
        let short = Array(original.prefix(original.count * 3 / 4)) + [0xFF, 0xD9]
        for (name, damaged) in [("trailing garbage", garbage), ("cut short", short)] {
            let reads = try Self.bothReads(damaged, .right)
            #expect(reads.path == .libjpeg, "\(name): read by \(reads.path)")
            #expect(reads.warned, "\(name): libjpeg did not warn")
            #expect(reads.same, "\(name)")
        }
    }

    @Test("damage anywhere in the data: the split read never differs from libjpeg's")
    func splitDecodeAgreesWithLibjpegOnDamage() throws {
        let folder = try TemporaryDirectory("coefficient-turn-split-damage")
        let path = try Self.source(PixelSize(width: 1280, height: 960), cjpeg: ["-sample", "2x2"], in: folder, named: "damage")
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let scan = try #require(original.indices.dropLast().last { original[$0] == 0xFF && original[$0 + 1] == 0xDA }) + 20
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var paths: [JPEGCoefficientTurn.EntropyDecode] = []
        for _ in 0..<12 {
            var damaged = original
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let offset = scan + Int(seed >> 33) % (original.count - 2 - scan)
            // Never a marker: the byte flips to another that is not FF, nor after an FF.
            guard damaged[offset] != 0xFF, damaged[offset - 1] != 0xFF else { continue }
            let flipped = damaged[offset] ^ UInt8(truncatingIfNeeded: (seed >> 20) | 1)
            damaged[offset] = flipped == 0xFF ? damaged[offset] ^ 0x01 : flipped
            let reads = try Self.bothReads(damaged, .right)
            #expect(reads.same, "byte \(offset): read by \(reads.path), the reads differ")
            #expect(reads.path == .libjpeg || !reads.warned, "byte \(offset): libjpeg warned, the split read did not refuse")
            paths.append(reads.path)
        }
        #expect(paths.contains(.libjpeg), "no damage sent the file to libjpeg")
    }

    @Test("a damaged file is refused with libjpeg's reason, not turned")
    func damagedFileIsRefused() throws {
        let folder = try TemporaryDirectory("coefficient-turn-damaged")
        let path = try Self.source(PixelSize(width: 64, height: 64), cjpeg: ["-sample", "2x2"], in: folder, named: "damaged")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // A frame header that declares 0 components.
        guard let sof = bytes.indices.dropLast().first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else {
            Issue.record("no SOF0 in cjpeg's output")
            return
        }
        bytes[sof + 9] = 0
        #expect(throws: (any Error).self) { try JPEGLosslessTransform.transform(bytes, applying: .right, strips: 2) }
    }

    @Test("a turn that is not exact throws the refusal itself, its orientation and sizes typed")
    func inexactTurnThrowsTheTypedRefusal() throws {
        let folder = try TemporaryDirectory("coefficient-turn-inexact")
        // 4:2:0 (16x16 iMCUs), 203 wide: a quarter turn counter-clockwise moves the right edge.
        let path = try Self.source(PixelSize(width: 203, height: 96), cjpeg: ["-sample", "2x2"], in: folder, named: "inexact")
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let error = #expect(throws: CodecError.self) { try JPEGLosslessTransform.transform(original, applying: .left) }
        let expected = LosslessTurnRefusal(orientation: .left, size: PixelSize(width: 203, height: 96),
                                           mcu: PixelSize(width: 16, height: 16))
        #expect(error == .losslessTurnNotExact(expected))
        #expect(expected.needsAlignedWidth && !expected.needsAlignedHeight)
        #expect(error?.description == "lossless orientation 8 is not exact for 203x96 with a 16x16 MCU (it needs the width 203 a multiple of 16)")
    }
}
