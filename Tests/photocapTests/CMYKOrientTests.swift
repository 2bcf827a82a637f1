import Foundation
import Imaging
import Testing
import TestSupport

/// CMYK and YCCK JPEGs (print workflows, Adobe APP14) turn in their own colour model:
/// re-encoded in CMYK where the size makes a lossless turn inexact, through the coefficients
/// with --lossless. ImageMagick and exiftool judge: still CMYK, ICC profile and APP14 byte for
/// byte, pixels as ImageMagick's -auto-orient shows the original, both converted to sRGB by it.
@Suite struct CMYKOrientTests {
    /// A CMYK printer profile header ('prtr', CMYK → Lab) and one copyright tag: enough for
    /// exiftool to read, and unlike any profile photocap would write.
    static func cmykICCProfile() -> [UInt8] {
        var profile = OrientCommandTests.minimalICCProfile()
        profile.replaceSubrange(12..<24, with: Array("prtrCMYKLab ".utf8))
        return profile
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let size: String
        let sampling: String
        /// The Adobe transform written over ImageMagick's YCCK (2): 0 makes the file CMYK-coded.
        let transform: UInt8
        var orientation = 6
        let options: [String]
        var testDescription: String { "\(size) \(sampling) transform \(transform) orientation \(orientation) \(options.joined(separator: " "))" }
    }

    static let cases = [
        // Odd sizes: a lossless 90° turn would move a partial block, so the file is re-encoded.
        Case(size: "301x203", sampling: "1x1,1x1,1x1,1x1", transform: 2, options: []),
        Case(size: "301x203", sampling: "1x1,1x1,1x1,1x1", transform: 0, options: []),
        Case(size: "301x203", sampling: "2x2,1x1,1x1,2x2", transform: 2, options: []),
        Case(size: "301x203", sampling: "2x1,1x1,1x1,2x1", transform: 2, orientation: 5, options: []),
        Case(size: "301x203", sampling: "1x1,1x1,1x1,1x1", transform: 0, orientation: 7, options: []),
        Case(size: "301x203", sampling: "1x1,1x1,1x1,1x1", transform: 2, orientation: 8, options: []),
        Case(size: "301x203", sampling: "1x1,1x1,1x1,1x1", transform: 2, orientation: 3, options: []),
        Case(size: "301x203", sampling: "1x1,1x1,1x1,1x1", transform: 2, orientation: 2, options: []),
        Case(size: "301x203", sampling: "1x1,1x1,1x1,1x1", transform: 2, orientation: 4, options: []),
        // Whole blocks: the coefficients are turned.
        Case(size: "320x240", sampling: "1x1,1x1,1x1,1x1", transform: 2, options: ["--lossless"]),
        Case(size: "320x240", sampling: "2x2,1x1,1x1,2x2", transform: 0, options: ["--lossless"]),
    ]

    static func sRGB(_ path: String, autoOrient: Bool) throws -> RGBImage {
        try PPM.parse(try ExternalTool.run("convert", [path] + (autoOrient ? ["-auto-orient"] : [])
            + ["-colorspace", "sRGB", "-depth", "8", "ppm:-"]).checked().stdout)
    }

    @Test(arguments: cases)
    func aCMYKJPEGTurnsInItsOwnColourModel(_ test: Case) throws {
        let folder = try TemporaryDirectory("orient-cmyk")
        let input = folder.path("print.jpg")
        try ExternalTool.run("convert", [TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path, "-resize", "\(test.size)!",
                                         "-colorspace", "CMYK", "-sampling-factor", test.sampling, "-quality", "92", input]).checked()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        let adobe = try #require(bytes.firstRange(of: [0xFF, 0xEE, 0x00, 0x0E] + Array("Adobe".utf8)))
        bytes[adobe.lowerBound + 4 + 11] = test.transform
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let icc = folder.path("print.icc")
        try Data(Self.cmykICCProfile()).write(to: URL(fileURLWithPath: icc))
        try ExternalTool.run("exiftool", ["-q", "-n", "-overwrite_original", "-IFD0:Orientation=\(test.orientation)", "-ICC_Profile<=\(icc)", input]).checked()
        #expect(try ExternalTool.run("exiftool", ["-s3", "-n", "-ColorTransform", input]).checked().text == "\(test.transform)\n")

        let out = folder.path("out") + "/"
        let run = try ExternalTool.run(TestPaths.photocap, ["orient", "--output", out] + test.options + [input])
        #expect(run.status == 0, "\(run.stderr)")
        let output = out + "print.jpg"
        #expect(try ExternalTool.run("identify", ["-format", "%[colorspace] %wx%h", output]).checked().text
            == "CMYK \(test.orientation >= 5 ? test.size.split(separator: "x").reversed().joined(separator: "x") : test.size)")
        // Each component's sampling as it was, its axes swapped with the picture's.
        let sampling = test.sampling.split(separator: ",").map { factor in
            test.orientation >= 5 ? factor.split(separator: "x").reversed().joined(separator: "x") : String(factor)
        }.joined(separator: ",")
        #expect(try ExternalTool.run("identify", ["-format", "%[jpeg:sampling-factor]", output]).checked().text == sampling)
        #expect(try ExternalTool.run("exiftool", ["-b", "-ICC_Profile", output]).checked().stdout == Data(Self.cmykICCProfile()))
        #expect(try ExternalTool.run("exiftool", ["-n", "-s3", "-IFD0:Orientation", output]).checked().text == "1\n")
        let adobeBefore = try JFIFOrientTests.applicationSegments(input).filter { $0.marker == 0xEE }.map(\.payload)
        let adobeAfter = try JFIFOrientTests.applicationSegments(output).filter { $0.marker == 0xEE }.map(\.payload)
        #expect(adobeAfter == adobeBefore && adobeAfter.count == 1)

        let shown = try Self.sRGB(input, autoOrient: true), turned = try Self.sRGB(output, autoOrient: false)
        #expect(turned.size == shown.size)
        if turned.size == shown.size {
            let tolerance = test.options.contains("--lossless") ? OrientCommandTests.losslessTolerance : OrientCommandTests.goldenTolerance
            let difference = turned.meanAbsoluteDifference(to: shown)
            #expect(difference <= tolerance, "MAD \(difference)")
        }
        #expect(try OrientCommandTests.validationWarnings(output).isSubset(of: OrientCommandTests.validationWarnings(input)))
    }
}
