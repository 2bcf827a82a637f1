import Foundation
import Testing
import TestSupport

/// Small files of each format photocap reads, made by `photocap shoot` from a textured frame
/// file and turned (orientation 6) so that `orient` decodes them, and the byte surgery that
/// makes hostile variants of them.
struct HostileSeeds {
    let folder: TemporaryDirectory
    /// Path of each seed by its format: jpeg, tiff, heic, dng.
    let paths: [String: String]

    init(size: Int = 64) throws {
        folder = try TemporaryDirectory("photocap-seeds")
        let frame = folder.path("frame.yuv")
        let bayer = folder.path("frame.rggb")
        // A texture with edges in both directions, so every codec has detail to code.
        let texture = (0..<size * size).map { UInt8(truncatingIfNeeded: ($0 % size) * 5 ^ ($0 / size) * 3) }
        try Data((0..<size * size * 2).map { UInt8(truncatingIfNeeded: texture[$0 / 2] &+ UInt8($0 % 2) * 90) })
            .write(to: URL(fileURLWithPath: frame))
        try Data(texture).write(to: URL(fileURLWithPath: bayer))
        var paths: [String: String] = [:]
        for format in ["jpeg", "tiff", "heic", "dng"] {
            let path = folder.path("seed.\(format)")
            let source = format == "dng" ? ["--frame-file", bayer, "--frame-format", "srggb8"]
                : ["--frame-file", frame, "--frame-format", "yuyv"]
            let run = try ExternalTool.run(TestPaths.photocap, ["shoot"] + source + [
                "--frame-size", "\(size)x\(size)", "--format", format, "--rotation", "90", "--output", path])
            guard run.status == 0 else { throw SeedFailure(message: "shoot \(format): \(run.stderr)") }
            paths[format] = path
        }
        self.paths = paths
    }

    struct SeedFailure: Error, CustomStringConvertible { let message: String; var description: String { message } }

    func bytes(_ format: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: paths[format]!)))
    }

    // MARK: Crafted headers

    /// The JPEG with its SOF declaring `width` × `height`.
    static func jpeg(_ jpeg: [UInt8], declaring width: Int, _ height: Int) -> [UInt8] {
        var bytes = jpeg
        var position = 2
        while position + 9 < bytes.count {
            guard bytes[position] == 0xFF else { break }
            let marker = bytes[position + 1]
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            if (0xC0...0xC2).contains(marker) {
                bytes[position + 5] = UInt8(height >> 8); bytes[position + 6] = UInt8(height & 0xFF)
                bytes[position + 7] = UInt8(width >> 8); bytes[position + 8] = UInt8(width & 0xFF)
                return bytes
            }
            position += 2 + length
        }
        Issue.record("no SOF marker in the seed JPEG")
        return bytes
    }

    /// The TIFF (or DNG) with ImageWidth/ImageLength of IFD0 and of every SubIFD set to
    /// `width` × `height` (16-bit values).
    static func tiff(_ tiff: [UInt8], declaring width: Int, _ height: Int) -> [UInt8] {
        var bytes = tiff
        let little = bytes[0] == 0x49
        func read(_ offset: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { value, index in
                value | Int(bytes[offset + (little ? index : count - 1 - index)]) << (8 * index)
            }
        }
        func write(_ offset: Int, _ count: Int, _ value: Int) {
            for index in 0..<count { bytes[offset + (little ? index : count - 1 - index)] = UInt8((value >> (8 * index)) & 0xFF) }
        }
        var pending = [read(4, 4)]
        var visited = Set<Int>()
        var patched = 0
        while let ifd = pending.popLast() {
            guard ifd > 0, ifd + 2 < bytes.count, visited.insert(ifd).inserted else { continue }
            let entries = read(ifd, 2)
            for entry in 0..<entries {
                let at = ifd + 2 + entry * 12
                let tag = read(at, 2), type = read(at + 2, 2)
                let valueSize = type == 3 ? 2 : 4
                switch tag {
                case 256: write(at + 8, valueSize, width); patched += 1
                case 257: write(at + 8, valueSize, height); patched += 1
                case 330: pending.append(read(at + 8, 4))  // one SubIFD: its offset is the value
                default: break
                }
            }
            pending.append(read(ifd + 2 + entries * 12, 4))
        }
        if patched < 2 { Issue.record("no ImageWidth/ImageLength in the seed TIFF") }
        return bytes
    }

    /// The HEIC with every `ispe` property declaring `width` × `height`.
    static func heic(_ heic: [UInt8], declaring width: Int, _ height: Int) -> [UInt8] {
        var bytes = heic
        let tag = Array("ispe".utf8)
        var patched = 0
        for position in 0..<(bytes.count - 16) where Array(bytes[position..<position + 4]) == tag {
            for (index, value) in [width, height].enumerated() {
                for byte in 0..<4 { bytes[position + 8 + index * 4 + byte] = UInt8((value >> (8 * (3 - byte))) & 0xFF) }
            }
            patched += 1
        }
        if patched == 0 { Issue.record("no ispe box in the seed HEIC") }
        return bytes
    }
}
