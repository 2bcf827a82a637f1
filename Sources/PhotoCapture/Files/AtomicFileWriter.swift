#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Writes files so that a reader sees either nothing or the whole file: a temporary file in the
/// target folder, flushed, then renamed (or hard-linked, when replacing is not allowed, so an
/// existing file is never clobbered by a race).
public enum AtomicFileWriter {
    /// Writes `data` to `path`; fails with ``PhotoCaptureError/Code/fileExists(path:)`` when the
    /// file exists and `overwrite` is false. Nothing is left behind on failure.
    public static func write(_ data: Data, to path: String, overwrite: Bool) throws(PhotoCaptureError) {
        func failure(_ call: String) -> PhotoCaptureError {
            PhotoCaptureError(.fileWriteFailed(path: path, call: call, reason: String(cString: strerror(errno))))
        }
        if !overwrite, access(path, F_OK) == 0 { throw PhotoCaptureError(.fileExists(path: path)) }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var template = Array("\(folder)/.\(url.lastPathComponent).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("mkstemp") }
        let temporary = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        var committed = false
        defer { if !committed { unlink(temporary) } }

        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 { if errno == EINTR { continue }; return false }
                offset += count
            }
            return true
        }
        guard written else { let error = failure("write"); close(descriptor); throw error }
        // Files are readable like any other the user creates (mkstemp makes them 0600).
        let mask = umask(0); umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        guard fsync(descriptor) == 0 else { let error = failure("fsync"); close(descriptor); throw error }
        guard close(descriptor) == 0 else { throw failure("close") }

        if overwrite {
            guard rename(temporary, path) == 0 else { throw failure("rename") }
        } else {
            guard link(temporary, path) == 0 else {
                if errno == EEXIST { throw PhotoCaptureError(.fileExists(path: path)) }
                throw failure("link")
            }
            unlink(temporary)
        }
        committed = true
    }
}
