import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// An executable built beside `photocap` that carries the libraries `photocap` does not link
/// (OpenCV in `photocap-vision`, SwiftNIO and Hummingbird in `photocap-serve`): what a linked
/// library costs at start-up is paid by every run, so the commands that need one continue there.
package enum SiblingExecutable {
    /// Replaces this process with `name` from this executable's folder (execv: same process,
    /// arguments, environment and standard streams); returns only by throwing, naming `command`
    /// and `purpose` (what the sibling links), when it cannot be run.
    package static func replaceProcess(with name: String, for command: String, purpose: String) throws -> Never {
        let path = path(of: name)
        var arguments = CommandLine.arguments
        arguments[0] = path
        let pointers = arguments.map { strdup($0) } + [nil]
        execv(path, pointers)
        let reason = String(cString: strerror(errno))
        pointers.forEach { free($0) }
        throw fail("\(command) runs in \(name), which links \(purpose), and \(path) cannot be run "
                   + "(\(reason)): build it with `swift build --product \(name)` and keep it beside photocap")
    }

    /// `name` in the folder of this process's executable.
    static func path(of name: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        return executable.deletingLastPathComponent.appendingPathComponent(name)
    }
}
