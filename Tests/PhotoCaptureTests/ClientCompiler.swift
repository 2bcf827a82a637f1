import Foundation
import TestSupport

/// Type-checks a client's source file against the PhotoCapture module of this debug build, the
/// way SwiftPM compiles a target that depends on it: the compiler, module folder and C module
/// maps are those the build used for this test target (its `description.json`).
struct ClientCompiler {
    /// What the compiler said about one file.
    struct Verdict {
        /// Whether the file compiled.
        let compiled: Bool
        /// The compiler's diagnostics.
        let diagnostics: String
    }

    /// Why the build's description could not be used.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    let swiftc: String
    let arguments: [String]

    /// The compiler and arguments of the build that made this test bundle.
    init() throws {
        // The test bundle sits in the build folder (`.build/<triple>/debug`), beside description.json.
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let description = folder.appendingPathComponent("description.json")
        guard let data = FileManager.default.contents(atPath: description.path),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let commands = json["swiftCommands"] as? [String: [String: Any]],
              let command = commands.first(where: { $0.key.hasPrefix("C.PhotoCaptureTests-") })?.value,
              let swiftc = command["executable"] as? String, let modules = command["importPath"] as? String,
              let other = command["otherArguments"] as? [String] else {
            throw Unavailable(description: "no compile command for PhotoCaptureTests in \(description.path)")
        }
        // The C modules the Swift modules import: each `-Xcc X` pair and each `-I` of the build.
        var cModules: [String] = []
        var index = other.startIndex
        while index < other.endIndex {
            if other[index] == "-Xcc", index + 1 < other.endIndex {
                cModules += other[index...index + 1]
                index += 2
            } else {
                if other[index].hasPrefix("-I") { cModules.append(other[index]) }
                index += 1
            }
        }
        self.swiftc = swiftc
        arguments = ["-typecheck", "-swift-version", "6", "-I", modules,
                     "-module-cache-path", folder.appendingPathComponent("ModuleCache").path] + cModules
    }

    /// Type-checks `source` as a program's `main.swift` (top-level code allowed).
    func typecheck(_ source: String) throws -> Verdict {
        let folder = try TemporaryDirectory("client-compile")
        let file = folder.url.appendingPathComponent("main.swift")
        try Data(source.utf8).write(to: file)
        let output = try ExternalTool.run(swiftc, arguments + [file.path])
        return Verdict(compiled: output.status == 0, diagnostics: output.stderr + output.text)
    }
}
