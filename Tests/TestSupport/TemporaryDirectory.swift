import Foundation

/// A new empty folder under the system's temporary folder that is removed, with everything in
/// it, when the last reference goes away: hold it for as long as a test uses its files.
public final class TemporaryDirectory {
    /// The folder.
    public let url: URL

    /// Creates the folder; `name` starts its file name, which ends with a UUID.
    public init(_ name: String = "photocap-test") throws {
        url = try TestPaths.temporaryFolder(name)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` in the folder (a file or folder there, not made).
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `bytes` to the file `name` in the folder and returns that file's path.
    @discardableResult
    public func write(_ bytes: [UInt8], named name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }
}
