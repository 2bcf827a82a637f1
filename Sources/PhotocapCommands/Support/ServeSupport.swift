/// `photocap serve`, implemented in `photocap-serve`.
///
/// The server links SwiftNIO and Hummingbird; `photocap` does not, so its start-up stays as it
/// is: `serve` replaces the process with `photocap-serve`, built beside it, with the same
/// arguments (as the face commands continue in `photocap-vision`).
package enum ServeSupport {
    /// Set once by `photocap-serve`'s entry point, before the arguments are parsed; nil in `photocap`.
    nonisolated(unsafe) package static var installed: (@Sendable (ServeCommand) async throws -> Void)?

    /// The executable's name, beside `photocap`.
    package static let executableName = "photocap-serve"

    /// The server in this process; in `photocap`, this process becomes `photocap-serve` and
    /// does not return. Throws when `photocap-serve` is not beside `photocap`.
    package static func implementation() throws -> @Sendable (ServeCommand) async throws -> Void {
        if let installed { return installed }
        try SiblingExecutable.replaceProcess(with: executableName, for: "serve", purpose: "SwiftNIO and Hummingbird")
    }
}
