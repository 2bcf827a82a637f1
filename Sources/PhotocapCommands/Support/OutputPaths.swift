import FoundationEssentials
import PhotoCapture
import Synchronization
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

    /// Resolves `requested` (a file, or a folder that gets a timestamped name; a path ending in
    /// "/" is made if missing) and fails early when the folder is missing or read-only, or a file
    /// exists and `overwrite` is off.
    /// With `index`, the name gets a zero-padded `-NNN` suffix wide enough for `count`; with
    /// `member` (a bracket member), a `-bN` suffix after it. The paths of one run share `checks`.
    init(output: PhotoOutput, requested: String, format: PhotoFormat, withPreview: Bool, withRaw: Bool = false,
         overwrite: Bool, index: Int? = nil, count: Int = 1, member: Int? = nil, date: Date = Date(),
         checks: DestinationChecks = DestinationChecks()) throws(PhotoCaptureError) {
        let (exists, isDirectory) = checks.kind(of: requested)
        let photo: String
        if requested.hasSuffix("/") || (exists && isDirectory) {
            let name = "photocap-\(Self.timeStamp(date)).\(format.fileExtension ?? "bin")"
            let named = URL(filePath: requested, directoryHint: .isDirectory).appending(path: name, directoryHint: .notDirectory)
            photo = Self.suffixed(Self.numbered(named.path, index, count), member.map { "-b\($0)" })
        } else {
            photo = Self.suffixed(Self.numbered(requested, index, count), member.map { "-b\($0)" })
        }
        let stem = photo.deletingPathExtension
        preview = withPreview ? stem + ".preview.jpg" : nil
        raw = withRaw ? stem + ".dng" : nil
        // RAW + processed named after its DNG (`--output shot.dng`) or by a stem (`--output shot`,
        // beside which shot.dng goes): the photo gets its own extension.
        let namesAStem = withRaw && ["dng", ""].contains(photo.pathExtension.lowercased())
        self.photo = namesAStem ? stem + "." + (format.fileExtension ?? "bin") : photo

        // Hinted: URL(fileURLWithPath:) asks the file system whether each path is a folder.
        let folder = URL(filePath: photo, directoryHint: .notDirectory).deletingLastPathComponent().path
        if requested.hasSuffix("/"), !exists {
            // A folder asked for by a trailing slash is made, like `mkdir -p`.
            try Self.makeFolders(folder, for: photo)
            checks.made(requested)
            checks.made(folder)
        }
        guard checks.kind(of: folder) == (true, true) else {
            throw PhotoCaptureError(.file(ImageFileError(.folderMissing(path: self.photo, folder: folder))))
        }
        let accessError = checks.writeAccessError(folder)
        guard accessError == 0 else {
            throw PhotoCaptureError(.file(ImageFileError(.writeFailed(path: self.photo, call: "access", errno: Errno(accessError)))))
        }
        if !overwrite {
            for path in [self.photo] + [preview, raw].compactMap({ $0 }) where checks.exists(path) {
                throw PhotoCaptureError(.file(ImageFileError(.fileExists(path: path))))
            }
        }
    }

    /// Makes `folder` and the folders above it that are missing, like `mkdir -p`; a failure
    /// names the call and its errno for the file `path` that was to be written there.
    private static func makeFolders(_ folder: String, for path: String) throws(PhotoCaptureError) {
        var made = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            made += "/" + component
            if mkdir(made, 0o777) != 0, errno != EEXIST {
                throw PhotoCaptureError(.file(ImageFileError(.writeFailed(path: path, call: "mkdir", errno: Errno(errno)))))
            }
        }
    }

    /// The last time stamp made: `--count N` names N files after one date (100 000 requests
    /// took 10 s before the first photo when each made a DateFormatter).
    private static let lastStamp = Mutex<(date: Date, text: String)?>(nil)

    /// `date` as `yyyyMMdd-HHmmss-SSS`, local time.
    static func timeStamp(_ date: Date) -> String {
        if let last = lastStamp.withLock({ $0 }), last.date == date { return last.text }
        let time = CalendarTime(date, in: .local)
        let text = String(printf: "%04ld%02ld%02ld-%02ld%02ld%02ld-%03ld", time.year, time.month, time.day,
                          time.hour, time.minute, time.second, time.millisecond)
        lastStamp.withLock { $0 = (date, text) }
        return text
    }

    private static func numbered(_ path: String, _ index: Int?, _ count: Int) -> String {
        guard let index else { return path }
        let digits = max(3, String(count).count)
        return suffixed(path, "-" + String(repeating: "0", count: max(0, digits - String(index).count)) + String(index))
    }

    /// `path` with `suffix` before its extension.
    private static func suffixed(_ path: String, _ suffix: String?) -> String {
        guard let suffix else { return path }
        let url = URL(filePath: path, directoryHint: .notDirectory)
        let ext = url.pathExtension
        return url.deletingPathExtension().path + suffix + (ext.isEmpty ? "" : "." + ext)
    }
}
