import Foundation

/// Where the repository, its test images and the built `photocap` binary are.
public enum TestPaths {
    /// The repository root (this file is Tests/TestSupport/TestPaths.swift).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `TestImages/` in the repository.
    public static let testImages = repository.appendingPathComponent("TestImages")

    /// The folder of the executables the end-to-end tests run: `PHOTOCAP_BINARIES` when set
    /// (`.ci/test` points it at the release build, the binary people run, whose optimiser
    /// exposes what a debug build hides), else the build folder of the test bundle.
    public static var binaries: URL {
        if let folder = ProcessInfo.processInfo.environment["PHOTOCAP_BINARIES"], !folder.isEmpty {
            return URL(fileURLWithPath: folder, relativeTo: repository).standardizedFileURL
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// Whether ``binaries`` is a release build (`swift build -c release` puts it in a folder
    /// named `release`).
    public static var binariesAreRelease: Bool { binaries.resolvingSymlinksInPath().lastPathComponent == "release" }

    /// The `photocap` executable under test.
    public static var photocap: String { binaries.appendingPathComponent("photocap").path }

    /// `photocap-vision`, beside `photocap`: the same commands with OpenCV linked in.
    public static var photocapVision: String { binaries.appendingPathComponent("photocap-vision").path }

    /// A new empty folder under the system's temporary folder.
    public static func temporaryFolder(_ name: String = "photocap-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
