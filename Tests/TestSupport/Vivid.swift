import Foundation
import Imaging

/// The kernel's vivid camera, driven with v4l2-ctl and modprobe (third-party tools, so a test
/// never checks photocap with photocap). Only usable inside the VM harness
/// (Tests/V4L2Integration), which sets `PHOTOCAP_VIVID_DEVICE`.
public enum Vivid {
    /// The device node, when the tests run next to a vivid camera.
    public static var device: String? { ProcessInfo.processInfo.environment["PHOTOCAP_VIVID_DEVICE"] }

    /// Whether the vivid tests run.
    public static var isAvailable: Bool { device != nil }

    /// The device node; /dev/video0 where the suites are only listed, not run.
    public static var path: String { device ?? "/dev/video0" }

    /// Module parameters: one device with one video capture node.
    public static let moduleParameters = ["n_devs=1", "node_types=0x1"]

    /// Unloads and loads vivid so every test starts from a fresh device with default controls.
    /// Fails when the old device is still open (a leaked descriptor).
    public static func reload() throws {
        try ExternalTool.run("modprobe", ["-r", "vivid"]).checked()
        try ExternalTool.run("modprobe", ["vivid"] + moduleParameters).checked()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: device!) { usleep(20_000) }
        // No on-screen text, so frames are deterministic (a control, not a module parameter).
        try set(["osd_text_mode": "2"])
    }

    /// What each test of a vivid suite starts from: vivid reloaded (``reload()``) and a new
    /// folder whose name starts with `name`.
    public static func reloaded(folder name: String) throws -> TemporaryDirectory {
        try reload()
        return try TemporaryDirectory(name)
    }

    /// Sets controls with v4l2-ctl, e.g. `["test_pattern": "0"]`.
    public static func set(_ controls: KeyValuePairs<String, String>) throws {
        let list = controls.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        try ExternalTool.run("v4l2-ctl", ["-d", device!, "-c", list]).checked()
    }

    /// One RGB3 frame captured by v4l2-ctl: vivid's own rendering of the pattern, the reference
    /// photocap's photos are compared with.
    public static func referenceFrame(width: Int, height: Int, in folder: URL) throws -> RGBImage {
        let bytes = try referenceBytes(width: width, height: height, fourCC: "RGB3", byteCount: width * height * 3, in: folder)
        return RGBImage(size: PixelSize(width: width, height: height), pixels: bytes)
    }

    /// The first `byteCount` bytes of one frame of `fourCC` captured by v4l2-ctl.
    public static func referenceBytes(width: Int, height: Int, fourCC: String, byteCount: Int, in folder: URL) throws -> [UInt8] {
        let file = folder.appendingPathComponent("reference-\(UUID().uuidString).\(fourCC)").path
        try ExternalTool.run("v4l2-ctl", [
            "-d", device!, "--set-fmt-video=width=\(width),height=\(height),pixelformat=\(fourCC)",
            "--stream-mmap", "--stream-count=1", "--stream-to=\(file)",
        ]).checked()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        guard bytes.count >= byteCount else {
            struct Short: Error, CustomStringConvertible { let description: String }
            throw Short(description: "v4l2-ctl wrote \(bytes.count) bytes for a \(width)x\(height) \(fourCC) frame")
        }
        return Array(bytes[0..<byteCount])
    }

    /// vivid renders GREY as full-range BT.709 luma of its RGB pattern (measured: the 75% cyan
    /// bar is 150 = 0.7152 × 191 + 0.0722 × 191).
    public static func luma709(_ image: RGBImage) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            let y = 0.2126 * Double(image.pixels[i]) + 0.7152 * Double(image.pixels[i + 1]) + 0.0722 * Double(image.pixels[i + 2])
            let value = UInt8(min(255, max(0, y.rounded())))
            (pixels[i], pixels[i + 1], pixels[i + 2]) = (value, value, value)
        }
        return RGBImage(size: image.size, pixels: pixels)
    }

    /// Resident memory of this process, in bytes (VmRSS).
    public static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Open file descriptors of this process.
    public static func openDescriptors() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
    }
}
