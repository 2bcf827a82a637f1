import Foundation
import Testing
import TestSupport

/// `photocap orient` of TIFF files keeps their kind and everything that is the user's (issue
/// 18): bit depth, samples, photometric interpretation, compression, byte order; ICC, IPTC,
/// XMP, EXIF and GPS with their dates. The files are made here by ImageMagick and tiffcp, their
/// metadata written by exiftool; ImageMagick judges the pixels at 16 bits, exiftool the tags.
@Suite struct TIFFOrientTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// ImageMagick options that make the picture (101x67, so every turn changes the shape).
        let make: [String]
        /// tiffcp options applied afterwards (byte order, strips), if any.
        var copy: [String] = []
        let orientation: Int
        var testDescription: String { "\(name), orientation \(orientation)" }
    }

    static let cases: [Case] = [
        Case(name: "rgb16-uncompressed", make: ["gradient:red-blue", "-depth", "16", "-compress", "none"], orientation: 6),
        Case(name: "grey8-lzw-predictor", make: ["gradient:white-black", "-colorspace", "Gray", "-depth", "8", "-compress", "lzw",
                                                 "-define", "tiff:predictor=2"], orientation: 3),
        Case(name: "grey16-deflate", make: ["gradient:white-black", "-colorspace", "Gray", "-depth", "16", "-compress", "zip"], orientation: 8),
        Case(name: "rgba8-lzw", make: ["gradient:red-blue", "-alpha", "set", "-channel", "A", "-fx", "i/w", "-depth", "8", "-compress", "lzw"],
             orientation: 5),
        Case(name: "palette4-packbits", make: ["gradient:red-blue", "-colors", "16", "-type", "Palette", "-compress", "RLE"], orientation: 7),
        Case(name: "rgb16-big-endian-lzw-strips", make: ["gradient:red-blue", "-depth", "16", "-compress", "none"],
             copy: ["-B", "-c", "lzw:2", "-r", "16"], orientation: 2),
    ]

    /// Tags a turn must change; everything else must read the same.
    static let changedByATurn: Set<String> = [
        "IFD0:ImageWidth", "IFD0:ImageHeight", "IFD0:Orientation", "IFD0:RowsPerStrip", "IFD0:StripOffsets", "IFD0:StripByteCounts",
        "IFD0:XResolution", "IFD0:YResolution", "XMP-tiff:Orientation", "ExifIFD:ExifImageWidth", "ExifIFD:ExifImageHeight",
    ]

    static func pixels16(_ path: String, autoOrient: Bool) throws -> Data {
        try ExternalTool.run("convert", [path] + (autoOrient ? ["-auto-orient"] : []) + ["-depth", "16", "ppm:-"]).checked().stdout
    }

    @Test(arguments: cases)
    func aTIFFIsTurnedInItsOwnKindKeepingEveryTag(_ testCase: Case) throws {
        let folder = try TemporaryDirectory("tiff-kind")
        let path = folder.path("\(testCase.name).tif")
        try ExternalTool.run("convert", ["-size", "101x67"] + testCase.make + [path]).checked()
        if !testCase.copy.isEmpty {
            let made = path + ".made.tif"
            try FileManager.default.moveItem(atPath: path, toPath: made)
            try ExternalTool.run("tiffcp", testCase.copy + [made, path]).checked()
            try FileManager.default.removeItem(atPath: made)
        }
        // The P3 profile of the iPhone HEIC in TestImages (BSD-3-Clause), and the rest of what a
        // photo library holds: XMP, IPTC, an author, the original date, a location.
        let profile = folder.path("p3.icc")
        try ExternalTool.run("exiftool", ["-b", "-ICC_Profile", HEICOrientTests.arrow.path]).checked().stdout
            .write(to: URL(fileURLWithPath: profile))
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=\(testCase.orientation)", "-ICC_Profile<=\(profile)",
                                          "-XMP-dc:Creator=Ada", "-XMP-tiff:Orientation=\(testCase.orientation)", "-IPTC:Keywords=harbour",
                                          "-Artist=Bob", "-DateTimeOriginal=2004:06:21 23:37:53", "-GPSLatitude=51.5",
                                          "-GPSLatitudeRef=N", path]).checked()
        let original = folder.path("original.tif")
        try FileManager.default.copyItem(atPath: path, toPath: original)

        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--in-place", path])
        #expect(run.status == 0, "\(run.stderr)")
        let turnedSize = [5, 6, 7, 8].contains(testCase.orientation) ? "67x101" : "101x67"
        #expect(run.text == "\(path): orientation \(testCase.orientation) -> 1 (\(turnedSize))\n")

        // Pixels: at 16 bits, exactly what ImageMagick shows for the original.
        #expect(try Self.pixels16(path, autoOrient: false) == Self.pixels16(original, autoOrient: true))
        // Tags: all the same but those a turn changes, which say the new shape and 1.
        let before = try MetadataPreservationTests.metadata(original), after = try MetadataPreservationTests.metadata(path)
        let differences = Set(before.keys).union(after.keys).sorted()
            .filter { key in !Self.changedByATurn.contains(key) && !MetadataPreservationTests.codingGroups.contains { key.hasPrefix($0) } }
            .filter { before[$0] != after[$0] }
            .map { "\($0): \(before[$0] ?? "absent") -> \(after[$0] ?? "absent")" }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(after["IFD0:Orientation"] == "Horizontal (normal)" && after["XMP-tiff:Orientation"] == "Horizontal (normal)")
        #expect(after["IFD0:ImageWidth"].map { "\($0)x\(after["IFD0:ImageHeight"] ?? "")" } == turnedSize)
        #expect(after["ICC_Profile:ProfileDescription"] == "Display P3" && after["ExifIFD:DateTimeOriginal"] == "2004:06:21 23:37:53")
        #expect(try MetadataPreservationTests.warnings(path).isSubset(of: MetadataPreservationTests.warnings(original)))
        let validation = try ExternalTool.exiftoolValidationProblems(path)
        #expect(Set(validation).isSubset(of: Set(try ExternalTool.exiftoolValidationProblems(original))), "\(validation)")
    }

    /// What cannot be turned in its own kind is refused before anything is written, naming why;
    /// the file is left as it was.
    @Test(arguments: [
        (["-define", "tiff:tile-geometry=32x32", "-compress", "lzw"], "a tiled TIFF"),
        (["-compress", "jpeg"], "a JPEG-compressed TIFF"),
    ])
    func whatCannotBeTurnedInItsKindIsRefused(options: [String], reason: String) throws {
        let folder = try TemporaryDirectory("tiff-refused")
        let path = folder.path("refused.tif")
        try ExternalTool.run("convert", ["-size", "101x67", "gradient:red-blue", "-depth", "8"] + options + [path]).checked()
        try ExternalTool.run("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", path]).checked()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--in-place", path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(reason): turning it is not supported; the file is left as it is"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
