import Foundation

/// Runs third-party programs (exiftool, djpeg, heif-info, tiffinfo, ImageMagick, dcraw) that judge
/// photocap's files.
public enum ExternalTool {
    /// What a program printed and how it exited.
    public struct Output: Sendable {
        /// Exit status.
        public let status: Int32
        /// Standard output bytes.
        public let stdout: Data
        /// Standard error text.
        public let stderr: String
        /// Standard output as text.
        public var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// A tool is missing: tests fail with the Debian package to install rather than skip.
    public struct Missing: Error, CustomStringConvertible {
        /// The program.
        public let tool: String
        /// The Debian package that provides it.
        public let package: String
        /// The message.
        public var description: String { "\(tool) is not installed (apt-get install \(package))" }
    }

    /// Debian packages of the tools the tests use.
    static let packages = [
        "exiftool": "libimage-exiftool-perl", "djpeg": "libjpeg-turbo-progs", "heif-info": "libheif-examples",
        "heif-enc": "libheif-examples", "heif-convert": "libheif-examples",
        "tiffinfo": "libtiff-tools", "convert": "imagemagick", "identify": "imagemagick", "compare": "imagemagick",
        "dcraw": "dcraw", "unprocessed_raw": "libraw-bin", "raw-identify": "libraw-bin", "getfattr": "attr", "setfattr": "attr",
        "getfacl": "acl", "setfacl": "acl", "dbus-daemon": "dbus-daemon", "dbus-send": "dbus-bin",
    ]

    /// The full path of `tool` on PATH.
    public static func path(of tool: String) throws -> String {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(tool: tool, package: packages[tool] ?? tool)
    }

    /// Runs `tool` (looked up on PATH, or an absolute path) with `arguments`.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool.hasPrefix("/") ? tool : try path(of: tool))
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs so a large output cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: outputData,
                      stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// exiftool's `-validate -warning` verdict: every line beyond "Validate : OK", or a
    /// complaint when that line is missing, so silence never passes.
    public static func exiftoolValidationProblems(_ file: String) throws -> [String] {
        let output = try run("exiftool", ["-validate", "-warning", "-error", "-a", file])
        let lines = output.text.split(separator: "\n").map(String.init)
        var problems = lines.filter { !($0.hasPrefix("Validate") && $0.hasSuffix(": OK")) }
        if !lines.contains(where: { $0.hasPrefix("Validate") && $0.hasSuffix(": OK") }) {
            problems.append("no 'Validate : OK' verdict")
        }
        if output.status != 0 { problems.append("exit status \(output.status): \(output.stderr)") }
        return problems
    }
}
