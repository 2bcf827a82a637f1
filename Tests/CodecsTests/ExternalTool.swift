import Foundation
import Testing

/// Runs third-party command-line tools (exiftool, djpeg, heif-info, tiffinfo, ImageMagick)
/// that judge the files the codecs write.
enum ExternalTool {
    /// The Debian package that provides each tool, for the failure message.
    static let packages: [String: String] = [
        "exiftool": "libimage-exiftool-perl",
        "djpeg": "libjpeg-turbo-progs",
        "heif-info": "libheif-examples",
        "tiffinfo": "libtiff-tools",
        "convert": "imagemagick",
    ]

    /// The result of one run.
    struct Output {
        let status: Int32
        let stdout: Data
        let stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The absolute path of `tool` on PATH, nil when it is not installed.
    static func path(of tool: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `arguments[0]` with the rest as arguments; a missing tool fails the test with the
    /// package to install.
    static func run(_ arguments: [String]) throws -> Output {
        guard let tool = arguments.first, let executable = path(of: tool) else {
            let name = arguments.first ?? "?"
            let message = "\(name) is not installed: apt-get install \(packages[name] ?? name)"
            Issue.record(Comment(rawValue: message))
            throw ToolMissing(message: message)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        let stdout = Pipe()
        // stderr goes to a file, so a chatty tool cannot block on a full pipe while we read stdout.
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("codecs-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorURL) }
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        process.standardOutput = stdout
        process.standardError = errorHandle
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errorHandle.close()
        let errors = (try? Data(contentsOf: errorURL)) ?? Data()
        return Output(status: process.terminationStatus, stdout: output, stderr: String(decoding: errors, as: UTF8.self))
    }

    struct ToolMissing: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// A temporary directory for files handed to external tools, removed at deinit.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("codecs-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to `name` and returns the path.
    func write(_ bytes: [UInt8], named name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }
}
