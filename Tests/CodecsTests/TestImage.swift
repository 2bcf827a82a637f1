import Codecs
import Foundation
import Imaging
import Testing

/// Synthetic pictures and pixel comparisons for the codec tests.
enum TestImage {
    /// Packed RGB of `size` whose four quadrants have distinct colours and whose top-left
    /// quadrant holds a white square, so every one of the 8 orientations gives a different
    /// picture. Quadrant edges fall on multiples of 16 for the sizes used here, which keeps
    /// JPEG/HEVC chroma ringing small.
    static func quadrants(_ size: PixelSize) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: size.area * 3)
        let halfWidth = size.width / 2, halfHeight = size.height / 2
        for y in 0..<size.height {
            for x in 0..<size.width {
                let colour: (UInt8, UInt8, UInt8)
                switch (x < halfWidth, y < halfHeight) {
                case (true, true): colour = (220, 40, 40)     // red, top-left
                case (false, true): colour = (40, 200, 60)    // green, top-right
                case (true, false): colour = (40, 60, 210)    // blue, bottom-left
                case (false, false): colour = (230, 210, 40)  // yellow, bottom-right
                }
                let marker = x >= halfWidth / 4 && x < halfWidth / 2 && y >= halfHeight / 4 && y < halfHeight / 2
                let index = (y * size.width + x) * 3
                (rgb[index], rgb[index + 1], rgb[index + 2]) = marker ? (250, 250, 250) : colour
            }
        }
        return rgb
    }

    /// The planar form of ``quadrants(_:)``.
    static func planarQuadrants(_ size: PixelSize) throws -> PlanarImage {
        let rgb = quadrants(size)
        return try rgb.withUnsafeBufferPointer { try PlanarImage(rgb: $0, size: size) }
    }

    /// What a viewer shows for stored pixels `rgb` of `size` with `orientation`: built point
    /// by point with ``Orientation/apply(toPoint:in:)``, independently of any codec.
    static func oriented(_ rgb: [UInt8], size: PixelSize, by orientation: Orientation) -> (size: PixelSize, rgb: [UInt8]) {
        let target = orientation.apply(to: size)
        var output = [UInt8](repeating: 0, count: rgb.count)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let point = orientation.apply(toPoint: (x, y), in: size)
                let from = (y * size.width + x) * 3, to = (point.y * target.width + point.x) * 3
                output[to] = rgb[from]
                output[to + 1] = rgb[from + 1]
                output[to + 2] = rgb[from + 2]
            }
        }
        return (target, output)
    }

    /// Mean absolute difference per sample (0...255); infinity when the sizes differ.
    static func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        var total = 0
        for index in a.indices { total += abs(Int(a[index]) - Int(b[index])) }
        return Double(total) / Double(a.count)
    }

    /// Parses a binary PPM (P6, maxval 255), as `djpeg -ppm` writes it.
    static func parsePPM(_ data: Data) throws -> (size: PixelSize, rgb: [UInt8]) {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var position = 0
        while fields.count < 4, position < bytes.count {
            if bytes[position] == UInt8(ascii: "#") {
                while position < bytes.count, bytes[position] != 0x0A { position += 1 }
            } else if bytes[position] <= 0x20 {
                position += 1
            } else {
                let start = position
                while position < bytes.count, bytes[position] > 0x20 { position += 1 }
                fields.append(String(decoding: bytes[start..<position], as: UTF8.self))
            }
        }
        position += 1  // the single whitespace after maxval
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255" else {
            throw PPMError(header: fields)
        }
        return (PixelSize(width: width, height: height), Array(bytes[position...]))
    }

    struct PPMError: Error { let header: [String] }
}

/// Files of the third-party reference set in ../shared/TestImages (later TestImages/ in the repo).
enum ReferenceImages {
    /// The repository root, from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The third-party folder: the repository's own copy when present, else ../shared's.
    static var thirdParty: URL? {
        let candidates = [
            repositoryRoot.appendingPathComponent("TestImages/third-party"),
            repositoryRoot.appendingPathComponent("../shared/TestImages/third-party").standardized,
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Bytes of `path` inside the third-party folder; nil when the set is absent.
    static func bytes(_ path: String) throws -> [UInt8]? {
        guard let folder = thirdParty else { return nil }
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(path)))
    }

    static let absentMessage: Comment = "third-party test images not found in TestImages/third-party or ../shared/TestImages/third-party"
}
