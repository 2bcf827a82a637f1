import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// The x265 settings HEICEncoder adds to libheif's (HEICEncoderPreset.x265Parameters) must reach
/// x265 and must not cost quality or size: judged against heif-enc coding the same planes (a Y4M
/// file, read raw), decoded by heif-convert and measured by ImageMagick.
@Suite("HEIC x265 settings: heif-enc's size and PSNR, the settings applied")
struct HEICEncoderSettingsTests {
    /// A photograph (the astronaut portrait, 512x512) as the 4:2:0 planes both encoders get.
    static func photograph() throws -> (png: String, planes: PlanarImage) {
        let png = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        return (png, try ReferenceDecoder.imageMagickStored(png).planarImage())
    }

    /// ImageMagick's PSNR (dB) of heif-convert's decoding of `heic` against the picture `png`.
    static func psnr(_ heic: String, against png: String) throws -> Double {
        let decoded = heic + ".png"
        try ExternalTool.run("heif-convert", [heic, decoded]).checked()
        // compare prints the metric on stderr and exits 1 when the pictures differ.
        let compared = try ExternalTool.run("compare", ["-metric", "PSNR", png, decoded, "null:"])
        return try #require(Double(compared.stderr.trimmingCharacters(in: .whitespacesAndNewlines)), "compare said: \(compared.stderr)")
    }

    @Test("medium at q50: PSNR within 0.1 dB and size within 2% of heif-enc's (libheif's x265 settings)")
    func qualityAndSizeKept() throws {
        let (png, planes) = try Self.photograph()
        let folder = try TemporaryDirectory("codecs-tests")
        let y4m = try folder.write(planes.y4mBytes(), named: "astronaut.y4m")
        let reference = folder.path("heif-enc.heic")
        try ExternalTool.run("heif-enc", ["-q", "50", "-p", "preset=medium", y4m, "-o", reference]).checked()
        let ours = try folder.write(try HEICEncoder(preset: .medium).encode(planes, quality: 50, orientation: .up, thumbnail: nil, exif: nil),
                                    named: "photocap.heic")

        let referenceSize = try #require(try FileManager.default.attributesOfItem(atPath: reference)[.size] as? Int)
        let ourSize = try #require(try FileManager.default.attributesOfItem(atPath: ours)[.size] as? Int)
        let sizeRatio = Double(ourSize) / Double(referenceSize)
        #expect(abs(sizeRatio - 1) <= 0.02, "\(ourSize) bytes against heif-enc's \(referenceSize)")
        let referencePSNR = try Self.psnr(reference, against: png)
        let ourPSNR = try Self.psnr(ours, against: png)
        #expect(abs(ourPSNR - referencePSNR) <= 0.1, "PSNR \(ourPSNR) dB against heif-enc's \(referencePSNR) dB")
        #expect(try ExternalTool.exiftoolValidationProblems(ours) == [])
    }

    @Test("the settings reach x265: heif-enc given them codes the same picture, without them another")
    func settingsApplied() throws {
        let (_, planes) = try Self.photograph()
        let folder = try TemporaryDirectory("codecs-tests")
        let y4m = try folder.write(planes.y4mBytes(), named: "astronaut.y4m")
        let ours = try folder.write(try HEICEncoder(preset: .medium).encode(planes, quality: 50, orientation: .up, thumbnail: nil, exif: nil),
                                    named: "photocap.heic")
        // Spelled out here, not read from HEICEncoderPreset: what the encoder is meant to use.
        let settings = ["-p", "tu-intra-depth=1", "-p", "x265:rd=2", "-p", "x265:splitrd-skip=1"]
        let withSettings = folder.path("with.heic")
        let withoutSettings = folder.path("without.heic")
        try ExternalTool.run("heif-enc", ["-q", "50", "-p", "preset=medium"] + settings + [y4m, "-o", withSettings]).checked()
        try ExternalTool.run("heif-enc", ["-q", "50", "-p", "preset=medium", y4m, "-o", withoutSettings]).checked()

        var pictures: [String: String] = [:]
        for file in [ours, withSettings, withoutSettings] {
            pictures[file] = file + ".png"
            try ExternalTool.run("heif-convert", [file, file + ".png"]).checked()
        }
        // ImageMagick's count of differing pixels (AE), printed on stderr.
        func differingPixels(_ first: String, _ second: String) throws -> Int {
            let compared = try ExternalTool.run("compare", ["-metric", "AE", pictures[first]!, pictures[second]!, "null:"])
            return try #require(Int(compared.stderr.trimmingCharacters(in: .whitespacesAndNewlines)), "compare said: \(compared.stderr)")
        }
        #expect(try differingPixels(ours, withSettings) == 0)
        #expect(try differingPixels(ours, withoutSettings) > 0)
    }
}
