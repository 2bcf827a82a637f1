import Foundation
import Glibc

extension ProcessComparison {
    /// What `photocap orient --pixels` of a very large HEIC costs against libheif's own tools
    /// doing the same work (heif-convert decodes and applies irot/imir, heif-enc encodes).
    struct LargeHEICResult {
        /// photocap's peak resident memory over the decoded picture's RGB bytes.
        var peakVersusDecoded: Double
        /// photocap's time over heif-convert's plus heif-enc's.
        var timeVersusLibheifTools: Double?
    }

    /// Runs once each, photocap first: getrusage(RUSAGE_CHILDREN) gives the largest peak of
    /// the children waited for so far, which is photocap's only while nothing else has run —
    /// so call this before any other comparison starts a process.
    func largeHEIC(_ path: String, decodedSize: (width: Int, height: Int)) throws -> LargeHEICResult {
        let photocap = try photocapExecutable()
        let output = folder.appendingPathComponent("large-heic")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let name = (path as NSString).lastPathComponent
        print("  \(name), \(decodedSize.width)x\(decodedSize.height) (one run each)")

        var start = ContinuousClock.now
        try runProcess(photocap, ["orient", "--pixels", "--output", output.path + "/", path])
        let ours = (ContinuousClock.now - start).milliseconds
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        let peak = Double(usage.ru_maxrss) * 1024
        let decoded = Double(decodedSize.width * decodedSize.height * 3)
        print(String(format: "    photocap orient --pixels                                      %9.0f ms  peak %.2f GB = %.2fx the decoded RGB (%.2f GB), ",
                     ours, peak / 1e9, peak / decoded, decoded / 1e9) + Self.fileSize(output.appendingPathComponent(name).path))

        var tools: Double?
        if let convert = Self.executable("heif-convert"), let encode = Self.executable("heif-enc") {
            let y4m = output.appendingPathComponent("upright.y4m").path
            start = ContinuousClock.now
            try runProcess(convert, [path, y4m])
            let decoding = (ContinuousClock.now - start).milliseconds
            start = ContinuousClock.now
            try runProcess(encode, ["-p", "preset=medium", "-o", output.appendingPathComponent("heif-enc.heic").path, y4m])
            let encoding = (ContinuousClock.now - start).milliseconds
            tools = decoding + encoding
            print(String(format: "    heif-convert (Y4M, irot/imir applied) + heif-enc (medium)     %9.0f ms  (%.0f + %.0f), ",
                         decoding + encoding, decoding, encoding) + Self.fileSize(output.appendingPathComponent("heif-enc.heic").path))
        } else {
            print("    heif-convert/heif-enc: skipped, not installed (apt-get install libheif-examples)")
        }
        return LargeHEICResult(peakVersusDecoded: peak / decoded, timeVersusLibheifTools: tools.map { ours / $0 })
    }

    /// "N bytes" for a written file (photocap matches the original's bytes per pixel; heif-enc
    /// codes at its default quality, so the sizes say how alike the work was).
    private static func fileSize(_ path: String) -> String {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        return size.map { "\($0) bytes" } ?? "no file"
    }
}
