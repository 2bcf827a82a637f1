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

    /// Runs once each. photocap's peak is its own (its VmHWM, see peakMemory), so this
    /// can run after the other comparisons: its gigabytes of freed memory, slow to touch again
    /// on a VM whose host reclaims free guest memory, would otherwise weigh on every later row.
    func largeHEIC(_ path: String, decodedSize: (width: Int, height: Int)) throws -> LargeHEICResult {
        let photocap = try photocapExecutable()
        let output = folder.appendingPathComponent("large-heic")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let name = (path as NSString).lastPathComponent
        print("  \(name), \(decodedSize.width)x\(decodedSize.height) (one run each)")

        var start = ContinuousClock.now
        let peak = try Self.peakMemory(of: photocap, ["orient", "--pixels", "--output", output.path + "/", path])
        let ours = (ContinuousClock.now - start).milliseconds
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

    /// Runs `executable` to completion (output discarded) and returns its peak resident memory
    /// in bytes: the high-water mark (`VmHWM`) of its own address space, read from /proc every
    /// 10 ms while it runs. Not rusage: a child started with posix_spawn (vfork-like, as
    /// Foundation's Process does) is charged the parent's high-water mark when it execs, and
    /// RUSAGE_CHILDREN is the largest of all children so far.
    private static func peakMemory(of executable: String, _ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let status = "/proc/\(process.processIdentifier)/status"
        var peak = 0.0
        while process.isRunning {
            // "VmHWM:   391234 kB"; gone once the process has ended.
            if let text = try? String(contentsOfFile: status, encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kilobytes = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
                peak = max(peak, kilobytes * 1024)
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus))")
        }
        return peak
    }

    /// "N bytes" for a written file (photocap matches the original's bytes per pixel; heif-enc
    /// codes at its default quality, so the sizes say how alike the work was).
    private static func fileSize(_ path: String) -> String {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        return size.map { "\($0) bytes" } ?? "no file"
    }
}
