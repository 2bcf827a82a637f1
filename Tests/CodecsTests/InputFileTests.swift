import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

/// What ``InputFile`` says of a path it cannot read: typed, the system's error number kept.
@Suite("Input files")
struct InputFileTests {
    @Test("a system call that fails for another reason carries the call and its errno, typed")
    func failedCallCarriesErrno() throws {
        let folder = try TemporaryDirectory("input-file-errno")
        // Two links that name each other: stat fails with ELOOP, which has no case of its own.
        let a = folder.path("a"), b = folder.path("b")
        #expect(symlink(b, a) == 0 && symlink(a, b) == 0)
        let error = #expect(throws: FileReadError.self) { try InputFile.read(a) }
        #expect(error == .failed(path: a, call: "stat", errno: Errno(ELOOP)))
        #expect(error?.reason == "stat failed: \(String(cString: strerror(ELOOP)))")
    }

    @Test("a missing file is named as missing, not as a failed call")
    func missingFileIsNamed() throws {
        let folder = try TemporaryDirectory("input-file-missing")
        let path = folder.path("missing")
        #expect(throws: FileReadError.noSuchFile(path: path)) { try InputFile.read(path) }
    }
}
