import Foundation
import Imaging
import Testing
import TestSupport

/// A re-encoded JPEG keeps its JFIF APP0: version and density as they were, the
/// densities swapped with the axes by a quarter turn, every other application segment in its
/// place. Judged by a marker walk written here and by exiftool.
@Suite struct JFIFOrientTests {
    /// The APPn and COM segments of a JPEG before its first scan, read here rather than by
    /// photocap's own reader: (marker, payload).
    static func applicationSegments(_ path: String) throws -> [(marker: UInt8, payload: [UInt8])] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var segments: [(marker: UInt8, payload: [UInt8])] = []
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF, bytes[position + 1] != 0xDA {
            let marker = bytes[position + 1]
            let end = min(position + 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])), bytes.count)
            if (0xE0...0xEF).contains(marker) || marker == 0xFE { segments.append((marker, Array(bytes[(position + 4)..<end]))) }
            position = end
        }
        return segments
    }

    /// What names a segment's kind: its marker and the identifier its payload starts with (up
    /// to the first NUL, at most 16 bytes), "JFIF", "Exif", "ICC_PROFILE", "Adobe" and so on.
    static func kind(_ segment: (marker: UInt8, payload: [UInt8])) -> String {
        let identifier = segment.payload.prefix(16).prefix { $0 != 0 && $0 >= 0x20 && $0 < 0x7F }
        let name = segment.marker == 0xFE ? "COM" : "APP\(Int(segment.marker) - 0xE0)"
        return "\(name) \(String(decoding: identifier, as: UTF8.self))"
    }

    /// The file's JFIF APP0 replaced by one that differs from TurboJPEG's: version 1.02, 300x150
    /// dots per inch, and a 4x2 RGB thumbnail of distinct colours.
    static func withOwnJFIF(_ jpeg: [UInt8]) throws -> [UInt8] {
        try #require(jpeg[2] == 0xFF && jpeg[3] == 0xE0)
        let end = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        let payload = Array("JFIF".utf8) + [0, 1, 2, 1, 0x01, 0x2C, 0x00, 0x96, 4, 2] + (0..<24).map { UInt8($0 * 10) }
        return [0xFF, 0xD8, 0xFF, 0xE0, 0, UInt8(payload.count + 2)] + payload + Array(jpeg[end...])
    }

    @Test func aReencodedJPEGKeepsItsJFIFAndEveryOtherSegment() throws {
        let folder = try TemporaryDirectory("orient-jfif")
        let original = [UInt8](try Data(contentsOf: OrientCommandTests.thirdParty.appendingPathComponent(
            "pillow-hopper-orientation/hopper_orientation_6.jpg")))
        let input = try folder.write(try Self.withOwnJFIF(original), named: "dense.jpg")
        let icc = folder.path("display.icc")
        try Data(OrientCommandTests.minimalICCProfile()).write(to: URL(fileURLWithPath: icc))
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-Comment=kept comment", "-ICC_Profile<=\(icc)", input]).checked()
        let before = try Self.applicationSegments(input)
        #expect(before.map(Self.kind) == ["APP0 JFIF", "APP1 Exif", "APP2 ICC_PROFILE", "COM kept comment"])
        let thumbnail = try folder.write([UInt8](try ExternalTool.run("exiftool", ["-b", "-ThumbnailTIFF", input]).checked().stdout),
                                         named: "thumbnail.tif")

        let out = folder.path("out") + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", out, input])
        #expect(run.status == 0, "\(run.stderr)")
        let output = out + "dense.jpg"
        let after = try Self.applicationSegments(output)
        #expect(after.map(Self.kind) == before.map(Self.kind))
        // Unchanged segments byte for byte; EXIF is edited (Orientation 1).
        for (old, new) in zip(before, after).dropFirst() where old.marker != 0xE1 {
            #expect(new.payload == old.payload, "\(Self.kind(old))")
        }
        // JFIF as it was, but a quarter turn swaps the densities and the thumbnail's sides.
        let tags = try ExternalTool.run("exiftool", ["-a", "-G1", "-s", "-JFIF:all", output]).checked().text
        #expect(tags == """
            [JFIF]          JFIFVersion                     : 1.02
            [JFIF]          ResolutionUnit                  : inches
            [JFIF]          XResolution                     : 150
            [JFIF]          YResolution                     : 300
            [JFIF]          ThumbnailWidth                  : 2
            [JFIF]          ThumbnailHeight                 : 4
            [JFIF]          ThumbnailTIFF                   : (Binary data 24 bytes, use -b option to extract)

            """)
        // The thumbnail turned as ImageMagick turns the original's.
        let turnedThumbnail = try folder.write([UInt8](try ExternalTool.run("exiftool", ["-b", "-ThumbnailTIFF", output]).checked().stdout),
                                               named: "turned.tif")
        let expected = try PPM.parse(try ExternalTool.run("convert", [thumbnail, "-rotate", "90", "-depth", "8", "ppm:-"]).checked().stdout)
        #expect(try PPM.parse(try ExternalTool.run("convert", [turnedThumbnail, "-depth", "8", "ppm:-"]).checked().stdout) == expected)
        #expect(try ExternalTool.run("exiftool", ["-n", "-s3", "-IFD0:Orientation", output]).checked().text == "1\n")
        #expect(try OrientCommandTests.validationWarnings(output).isSubset(of: OrientCommandTests.validationWarnings(input)))
    }
}
