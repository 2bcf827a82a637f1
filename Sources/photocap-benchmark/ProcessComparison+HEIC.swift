import Codecs
import Foundation
import Imaging

extension ProcessComparison {
    /// The HEIC quality of the comparison (the targets' figures are for quality 50, preset medium).
    static let heicQuality = 50

    /// `photocap shoot --format heic` against `heif-enc`, whole processes, quality
    /// ``heicQuality``, x265 preset medium for both; returns photocap's time over heif-enc's
    /// (the tracked ratio), nil when heif-enc is not installed.
    ///
    /// heif-enc reads `planes` — the 4:2:0 planes the pipeline makes of `frameFile` — as a Y4M
    /// file: the same pixels and chroma, read raw, so it pays no decode or colour conversion,
    /// while photocap converts the YUYV frame itself and also writes EXIF and a thumbnail and
    /// syncs. heif-enc reading a PNG of `picture` (decode and its own RGB -> 4:2:0 conversion
    /// included, a different chroma filter) is shown beside, not used for the ratio. Sizes and
    /// PSNR (libheif's RGB against `picture`) are printed so "equal size and PSNR" can be seen.
    func heicVersusHeifEnc(frameFile: String, planes: PlanarImage, picture: RGBImage) throws -> ProcessRatio? {
        let photocap = try photocapExecutable()
        let y4m = path("frame.y4m"), png = path("frame.png")
        try Data(planes.y4mBytes()).write(to: URL(fileURLWithPath: y4m))
        try Data(PNGFile.encode(picture)).write(to: URL(fileURLWithPath: png))
        let quality = "\(Self.heicQuality)"
        let outputs = ["photocap": path("shoot.heic"), "y4m": path("heif-enc-y4m.heic"), "png": path("heif-enc-png.heic")]
        let reference = "heif-enc -p preset=medium (Y4M of the same 4:2:0 planes)"
        let ratios = try compare("\(size.width)x\(size.height) frame -> HEIC q\(quality), x265 preset medium", [
            Case(name: "photocap shoot --format heic --heic-speed medium", tool: photocap, arguments: [
                "shoot", "--frame-file", frameFile, "--frame-format", "yuyv", "--frame-size", "\(size.width)x\(size.height)",
                "--format", "heic", "--heic-speed", "medium", "--quality", quality, "--overwrite", "--output", outputs["photocap"]!]),
            Case(name: reference, tool: "heif-enc", arguments: ["-q", quality, "-p", "preset=medium", y4m, "-o", outputs["y4m"]!]),
            Case(name: "heif-enc -p preset=medium (PNG: decode + conversion)", tool: "heif-enc",
                 arguments: ["-q", quality, "-p", "preset=medium", png, "-o", outputs["png"]!]),
        ])
        for (name, file) in [("photocap", outputs["photocap"]!), ("heif-enc, Y4M", outputs["y4m"]!), ("heif-enc, PNG", outputs["png"]!)]
        where FileManager.default.fileExists(atPath: file) {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            let decoded = try HEICDecoder.decodeRGB(bytes, applyingTransformations: true)
            print("    " + "\(name): ".padded(to: 16) + String(format: "%9d bytes, PSNR %.3f dB against the source picture",
                                                            bytes.count, Self.psnr(RGBImage(size: decoded.size, pixels: decoded.rgb), picture)))
        }
        return ratios[reference].map(\.inverted)
    }

    /// Peak signal-to-noise ratio of `decoded` against `source` (the same size), in dB, over all
    /// samples; identical pictures give a large finite figure, as a sum of squares of 1e-9 would.
    static func psnr(_ decoded: RGBImage, _ source: RGBImage) -> Double {
        let meanSquared = decoded.differenceStatistics(to: source).meanSquared
        return 10 * log10(255 * 255 / max(meanSquared, 1e-9 / Double(max(source.pixels.count, 1))))
    }
}
