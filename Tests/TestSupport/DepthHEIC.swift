import Foundation

/// A small HEIC whose auxiliary image is a depth image, for tests of what becomes of one:
/// heif-enc's alpha image of a gradient, its `auxC` type made depth's (`auxid:1` → `auxid:2`,
/// same length, so nothing moves). The picture is a red-to-blue gradient, its depth one from
/// white at the left to black at the right.
public enum DepthHEIC {
    /// heif-enc wrote no alpha image to make a depth image of.
    public struct NoAlpha: Error, CustomStringConvertible {
        public var description: String { "heif-enc wrote no alpha auxC" }
    }

    /// Writes one of `width`x`height` with samples `bits` deep (8, or 10 for a depth image our
    /// encoder cannot code) into `folder` and returns its path.
    public static func make(bits: Int, width: Int = 64, height: Int = 48, in folder: TemporaryDirectory) throws -> String {
        let png = folder.path("depth.png")
        try ExternalTool.run("convert", ["-size", "\(width)x\(height)", "gradient:red-blue", "(", "-size", "\(height)x\(width)", "gradient:white-black",
                                         "-rotate", "90", ")", "-alpha", "off", "-compose", "CopyOpacity", "-composite"]
            + (bits > 8 ? ["-depth", "16", "PNG64:" + png] : ["PNG32:" + png])).checked()
        let alpha = folder.path("alpha.heic")
        try ExternalTool.run("heif-enc", ["-b", String(bits), "-q", "90", png, "-o", alpha]).checked()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: alpha)))
        guard let range = bytes.firstRange(of: Array("urn:mpeg:hevc:2015:auxid:1".utf8)) else { throw NoAlpha() }
        bytes[range.upperBound - 1] = UInt8(ascii: "2")
        return try folder.write(bytes, named: "depth\(bits).heic")
    }
}
