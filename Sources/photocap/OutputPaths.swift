import Foundation
import PhotoCapture
#if canImport(Glibc)
import Glibc
#endif

/// Where `shoot` writes: the photo, its optional preview and, for RAW + processed, the DNG
/// beside it, checked before capture.
struct OutputPaths {
    let photo: String
    let preview: String?
    /// The DNG of a RAW + processed request: the photo's name with the extension `.dng`.
    let raw: String?

    /// Resolves `requested` (a file, or a folder that gets a timestamped name) and fails early
    /// when the folder is missing or read-only, or a file exists and `overwrite` is off.
    /// With `index`, the name gets a zero-padded `-NNN` suffix wide enough for `count`.
    init(output: PhotoOutput, requested: String, format: PhotoFormat, withPreview: Bool, withRaw: Bool = false,
         overwrite: Bool, index: Int? = nil, count: Int = 1, date: Date = Date()) throws(PhotoCaptureError) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: requested, isDirectory: &isDirectory)
        let photo: String
        if requested.hasSuffix("/") || (exists && isDirectory.boolValue) {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyyMMdd-HHmmss-SSS"
            let name = "photocap-\(formatter.string(from: date)).\(format.fileExtension ?? "bin")"
            photo = Self.numbered(URL(fileURLWithPath: requested).appendingPathComponent(name).path, index, count)
        } else {
            photo = Self.numbered(requested, index, count)
        }
        let stem = (photo as NSString).deletingPathExtension
        preview = withPreview ? stem + ".preview.jpg" : nil
        raw = withRaw ? stem + ".dng" : nil
        self.photo = photo
        if let raw, raw == photo {
            throw PhotoCaptureError(.fileWriteFailed(path: photo, call: "open",
                                                     reason: "the processed photo and its DNG would share this name"))
        }

        let folder = URL(fileURLWithPath: photo).deletingLastPathComponent().path
        var folderIsDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &folderIsDirectory), folderIsDirectory.boolValue else {
            throw PhotoCaptureError(.fileWriteFailed(path: photo, call: "stat", reason: "folder \(folder) does not exist"))
        }
        guard access(folder, W_OK) == 0 else {
            throw PhotoCaptureError(.fileWriteFailed(path: photo, call: "access", reason: String(cString: strerror(errno))))
        }
        if !overwrite {
            for path in [photo] + [preview, raw].compactMap({ $0 }) where FileManager.default.fileExists(atPath: path) {
                throw PhotoCaptureError(.fileExists(path: path))
            }
        }
    }

    private static func numbered(_ path: String, _ index: Int?, _ count: Int) -> String {
        guard let index else { return path }
        let digits = max(3, String(count).count)
        let number = String(repeating: "0", count: max(0, digits - String(index).count)) + String(index)
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let stem = url.deletingPathExtension().path
        return stem + "-" + number + (ext.isEmpty ? "" : "." + ext)
    }
}
