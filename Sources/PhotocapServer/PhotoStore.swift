import FoundationEssentials
import PhotoCapture
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The photos taken, in the order they were taken, and the folder their files are in.
///
/// A photo is found by its ID only among the photos this store recorded, and its path is the
/// folder joined with the name the server made: nothing from a request becomes part of a path,
/// so no request reaches a file outside the folder.
package final class PhotoStore: Sendable {
    /// The photo folder, absolute.
    package let folder: String
    private let records = Mutex<[PhotoRecord]>([])

    /// A store writing into `folder`, made if missing.
    package init(folder: String) throws(ServerError) {
        var isDirectory = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw ServerError(.internalServerError, "--output: cannot make \(folder): \(error)")
            }
        } else if !isDirectory {
            throw ServerError(.internalServerError, "--output: \(folder) is not a folder")
        }
        self.folder = folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath.appendingPathComponent(folder)
    }

    /// The path of a new file named `name` (made by the server, never by a request).
    package func path(forNew name: String) -> String { folder.appendingPathComponent(name) }

    /// Records a photo whose file is written.
    package func add(_ record: PhotoRecord) { records.withLock { $0.append(record) } }

    /// Every photo, oldest first.
    package var all: [PhotoRecord] { records.withLock { $0 } }

    /// The photo with `id` and its file's path; nil when there is none.
    package func photo(_ id: String) -> (record: PhotoRecord, path: String)? {
        guard let record = records.withLock({ $0.first { $0.id == id } }) else { return nil }
        return (record, folder.appendingPathComponent(record.id))
    }

    /// Deletes the photo with `id`, its file first; false when there is none.
    package func delete(_ id: String) -> Bool {
        guard let (record, path) = photo(id) else { return false }
        unlink(path)
        records.withLock { $0.removeAll { $0.id == record.id } }
        return true
    }
}
