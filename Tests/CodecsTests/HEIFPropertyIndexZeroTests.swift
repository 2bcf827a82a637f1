import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// ISO/IEC 23008-12 lets an `ipma` entry name property index 0 ("no property"); libheif reads
/// such files, so photocap must too.
@Suite struct HEIFPropertyIndexZeroTests {
    /// `file` with the first association of a `pixi` property replaced by index 0; the
    /// association is non-essential, so readers lose nothing they need.
    static func withIndexZero(_ file: [UInt8]) throws -> [UInt8] {
        func integer(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 << 8 | Int(file[at + $1]) } }
        let ipco = try #require(file.indices.first { file[$0..<min($0 + 4, file.count)].elementsEqual("ipco".utf8) })
        // Property indices in ipco order (1-based), to find pixi's.
        var position = ipco + 4, index = 1, pixiIndex: Int?
        let ipcoEnd = ipco - 4 + integer(ipco - 4, 4)
        while position < ipcoEnd {
            if file[(position + 4)..<(position + 8)].elementsEqual("pixi".utf8) { pixiIndex = index; break }
            position += integer(position, 4)
            index += 1
        }
        let pixi = try #require(pixiIndex)
        let ipma = try #require(file.indices.first { file[$0..<min($0 + 4, file.count)].elementsEqual("ipma".utf8) })
        let flags = integer(ipma + 5, 3), version = Int(file[ipma + 4])
        #expect(flags & 1 == 0, "the test edits 1-byte associations")
        var cursor = ipma + 8
        let entries = integer(cursor, 4)
        cursor += 4
        var edited = file
        for _ in 0..<entries {
            cursor += version < 1 ? 2 : 4
            let count = Int(file[cursor]); cursor += 1
            for value in cursor..<(cursor + count) where Int(file[value] & 0x7F) == pixi {
                edited[value] = 0
                return edited
            }
            cursor += count
        }
        Issue.record("no pixi association")
        return edited
    }

    @Test func ipmaIndexZeroIsAccepted() throws {
        let original = try HEICTests.heic(Orientation(exifValue: 6))
        let file = try Self.withIndexZero(original)
        #expect(file != original)
        let folder = try TemporaryDirectory("ipma-zero")
        let path = try folder.write(file, named: "zero.heic")
        // libheif, the reference reader, takes it.
        #expect(try ExternalTool.run("heif-info", [path]).status == 0)
        let info = try ImageFileInfo(data: file)
        #expect(info.orientation == Orientation(exifValue: 6))
        #expect(info.storedSize == HEICTests.size)
    }
}
