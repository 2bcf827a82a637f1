import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// A JPEG too short for the picture its frame header declares is refused before its picture is
/// allocated (``JPEGFile/fewestCodedBytes(of:)``), and no complete file is: the bound is a bit a
/// block, which the tightest Huffman coding of a flat picture stays above, and arithmetic coding
/// (which goes below) is not bounded.
@Suite struct JPEGCodedSizeTests {
    /// A flat grey 4096x4096 picture coded by cjpeg with `options`.
    static func flat(_ options: [String], in folder: TemporaryDirectory) throws -> [UInt8] {
        let ppm = folder.path("flat.ppm")
        try Data(Array("P6\n4096 4096\n255\n".utf8) + [UInt8](repeating: 128, count: 4096 * 4096 * 3)).write(to: URL(fileURLWithPath: ppm))
        let jpeg = folder.path("flat.jpg")
        try ExternalTool.run("sh", ["-c", "cjpeg \"$@\" > \"\(jpeg)\"", "cjpeg"] + options + [ppm]).checked()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg)))
    }

    @Test("complete files decode, however well they compress", arguments: [["-baseline"], ["-progressive"], ["-grayscale", "-progressive"], ["-arithmetic"]])
    func completeFilesDecode(options: [String]) throws {
        let folder = try TemporaryDirectory("jpeg-coded-size")
        let jpeg = try Self.flat(options, in: folder)
        if options == ["-arithmetic"] {
            #expect(JPEGFile.fewestCodedBytes(of: jpeg) == nil && jpeg.count < 1000, "\(jpeg.count) bytes")
        } else {
            // 4:2:0 colour: 393,216 blocks; grey: 262,144.
            #expect(JPEGFile.fewestCodedBytes(of: jpeg) == (options.contains("-grayscale") ? 32_768 : 49_152))
        }
        let planes = try JPEGDecoder().decodePlanar(jpeg)
        #expect(planes.size == PixelSize(width: 4096, height: 4096))
    }

    @Test("a 3.9 KB file declaring 16384x16384 is refused before its planes are allocated")
    func aShortFileIsRefused() throws {
        let file = TestPaths.testImages.appendingPathComponent("fuzz-corpus/jpeg-16384x16384.orient.jpg")
        let jpeg = [UInt8](try Data(contentsOf: file))
        #expect(jpeg.count < 8192)
        #expect(throws: CodecError.self) { try JPEGDecoder().decodePlanar(jpeg) }
        do {
            _ = try JPEGDecoder().decodeRGB(jpeg)
            Issue.record("decoded")
        } catch {
            #expect("\(error)".contains("cannot hold the picture its header declares (at least 786432 bytes of coded data)"), "\(error)")
        }
        #expect(JPEGFile.fewestCodedBytes(of: jpeg) == 786_432)
    }
}
