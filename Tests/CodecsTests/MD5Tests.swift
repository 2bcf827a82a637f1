import Codecs
import Foundation
import Testing
import TestSupport

/// The MD5 that names a JPEG's extended XMP packet (its GUID), against RFC 1321's test suite
/// and coreutils' md5sum over every padding case.
@Suite struct MD5Tests {
    @Test func rfc1321TestSuite() {
        let suite = [("", "D41D8CD98F00B204E9800998ECF8427E"), ("a", "0CC175B9C0F1B6A831C399E269772661"),
                     ("abc", "900150983CD24FB0D6963F7D28E17F72"), ("message digest", "F96B697D7CB7938D525A2F31AAF161D0"),
                     ("abcdefghijklmnopqrstuvwxyz", "C3FCD3D76192E4007DFB496CCA67E13B"),
                     ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57EDF4A22BE3C955AC49DA2E2107B67A")]
        for (text, digest) in suite { #expect(MD5.hexDigest(Array(text.utf8)) == digest, "\(text)") }
    }

    /// Lengths around the 56-byte boundary where the length no longer fits the last block, and
    /// one of several hundred kilobytes (an extended packet's size).
    @Test(arguments: [55, 56, 63, 64, 65, 119, 120, 1000, 400_001])
    func agreesWithMd5sum(_ count: Int) throws {
        var generator = SeededGenerator(seed: UInt64(count))
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let folder = try TemporaryDirectory("md5")
        let digest = try ExternalTool.run("md5sum", [try folder.write(bytes, named: "bytes")]).checked().text.prefix(32)
        #expect(MD5.hexDigest(bytes) == digest.uppercased())
    }
}
