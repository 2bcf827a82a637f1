import Foundation
import Imaging

/// Decodes files with third-party decoders into ``RGBImage``s, stored or as a viewer shows them.
public enum ReferenceDecoder {
    /// The stored pixels of a JPEG, by libjpeg-turbo's `djpeg`.
    public static func djpeg(_ file: String) throws -> RGBImage {
        try PPM.parse(try ExternalTool.run("djpeg", ["-ppm", file]).checked().stdout)
    }

    /// What a viewer shows: ImageMagick applies the file's orientation (`-auto-orient`).
    public static func imageMagickAutoOriented(_ file: String) throws -> RGBImage {
        try PPM.parse(try ExternalTool.run("convert", [file, "-auto-orient", "-depth", "8", "ppm:-"]).checked().stdout)
    }

    /// A RAW file as dcraw develops it for a viewer: its Orientation applied, white balance as
    /// shot (`-w`), no automatic brightening (`-W`), sRGB primaries and tone curve, 8 bits.
    public static func dcraw(_ file: String) throws -> RGBImage {
        try PPM.parse(try ExternalTool.run("dcraw", ["-c", "-w", "-W", "-o", "1", "-g", "2.4", "12.92", file]).checked().stdout)
    }

    /// A RAW file's CFA samples as stored, by dcraw: document mode without scaling or black
    /// subtraction (`-D`), 16 bits (`-4`), not turned (`-t 0`); one value per pixel, row by row.
    public static func dcrawRawSamples(_ file: String) throws -> (size: PixelSize, samples: [UInt16]) {
        try PGM.parse16(try ExternalTool.run("dcraw", ["-c", "-D", "-4", "-t", "0", file]).checked().stdout)
    }

    /// The raw samples as LibRaw unpacks them (libraw-bin's `unprocessed_raw`: the stored
    /// values, no black level subtracted, no scaling), written beside `file` as `FILE.pgm`.
    public static func librawRawSamples(_ file: String) throws -> (size: PixelSize, samples: [UInt16]) {
        try ExternalTool.run("unprocessed_raw", ["-q", file]).checked()
        defer { try? FileManager.default.removeItem(atPath: file + ".pgm") }
        return try PGM.parse16(try Data(contentsOf: URL(fileURLWithPath: file + ".pgm")))
    }

    /// The stored pixels, by ImageMagick, ignoring orientation.
    public static func imageMagickStored(_ file: String) throws -> RGBImage {
        try PPM.parse(try ExternalTool.run("convert", [file, "-depth", "8", "ppm:-"]).checked().stdout)
    }
}

extension ExternalTool.Output {
    /// Self, or an error with stderr when the tool failed.
    @discardableResult
    public func checked() throws -> ExternalTool.Output {
        struct Failed: Error, CustomStringConvertible { let description: String }
        guard status == 0 else { throw Failed(description: "exit \(status): \(stderr)") }
        return self
    }
}

/// Binary PPM (P6, 8-bit) reading.
public enum PPM {
    struct Malformed: Error, CustomStringConvertible { let description: String }

    /// Parses a P6 file with maxval 255.
    public static func parse(_ data: Data) throws -> RGBImage {
        let bytes = [UInt8](data)
        var index = 0
        func token() throws -> String {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count && bytes[index] != 10 { index += 1 }
                } else if bytes[index] == 32 || bytes[index] == 10 || bytes[index] == 9 || bytes[index] == 13 {
                    index += 1
                } else { break }
            }
            let start = index
            while index < bytes.count, ![32, 10, 9, 13].contains(bytes[index]) { index += 1 }
            guard index > start else { throw Malformed(description: "PPM header ends early") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        guard try token() == "P6" else { throw Malformed(description: "not a binary PPM") }
        guard let width = Int(try token()), let height = Int(try token()), try token() == "255" else {
            throw Malformed(description: "unsupported PPM header")
        }
        index += 1
        guard bytes.count - index >= width * height * 3 else { throw Malformed(description: "PPM pixels truncated") }
        return RGBImage(size: PixelSize(width: width, height: height), pixels: Array(bytes[index..<index + width * height * 3]))
    }
}

/// Binary PGM (P5) reading, 16 bits per sample (big-endian, as Netpbm stores them).
public enum PGM {
    /// Parses a P5 file with maxval 65535.
    public static func parse16(_ data: Data) throws -> (size: PixelSize, samples: [UInt16]) {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var index = 0
        while fields.count < 4 {
            while index < bytes.count, [32, 10, 9, 13].contains(bytes[index]) { index += 1 }
            let start = index
            while index < bytes.count, ![32, 10, 9, 13].contains(bytes[index]) { index += 1 }
            guard index > start else { throw PPM.Malformed(description: "PGM header ends early") }
            fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        index += 1
        guard fields[0] == "P5", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "65535" else {
            throw PPM.Malformed(description: "not a 16-bit binary PGM: \(fields)")
        }
        guard bytes.count - index >= width * height * 2 else { throw PPM.Malformed(description: "PGM samples truncated") }
        let samples = (0..<width * height).map { UInt16(bytes[index + 2 * $0]) << 8 | UInt16(bytes[index + 2 * $0 + 1]) }
        return (PixelSize(width: width, height: height), samples)
    }
}
