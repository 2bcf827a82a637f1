import Foundation

extension BenchmarkCommand {
    /// The RGB bytes of `path` as ImageMagick's `convert` reads it with `operations`, when they
    /// are `byteCount` bytes; nil after printing why the row `row` is skipped (no ImageMagick, or
    /// the file unreadable: the benchmark runs from the repository).
    func imageMagickRGB(_ path: String, _ operations: [String] = [], byteCount: Int, row: String) -> [UInt8]? {
        let decode = Process()
        decode.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        decode.arguments = [path] + operations + ["-depth", "8", "rgb:-"]
        let pipe = Pipe()
        decode.standardOutput = pipe
        do { try decode.run() } catch {
            print("  \(row): skipped (ImageMagick's convert is needed to read \(path))")
            return nil
        }
        let bytes = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
        decode.waitUntilExit()
        guard decode.terminationStatus == 0, bytes.count == byteCount else {
            print("  \(row): skipped (\(path) unreadable; run from the repository)")
            return nil
        }
        return bytes
    }
}
