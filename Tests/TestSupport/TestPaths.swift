import Foundation

/// Where the repository, its test images and the built `photocap` binary are.
public enum TestPaths {
    /// The repository root (this file is Tests/TestSupport/TestPaths.swift).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `TestImages/` in the repository.
    public static let testImages = repository.appendingPathComponent("TestImages")

    /// The `photocap` executable built next to the test bundle.
    public static var photocap: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("photocap").path
    }

    /// `photocap-vision`, beside `photocap`: the same commands with OpenCV linked in.
    public static var photocapVision: String {
        URL(fileURLWithPath: photocap).deletingLastPathComponent().appendingPathComponent("photocap-vision").path
    }

    /// A new empty folder under the system's temporary folder.
    public static func temporaryFolder(_ name: String = "photocap-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
