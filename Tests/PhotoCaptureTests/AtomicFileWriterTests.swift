#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// Replacing a file holds the replaced one across the rename and lets it go on a background
/// queue (PendingFile.commit): the new bytes are in place when the write returns, and the old
/// file is let go soon after — no descriptor of the process stays on it.
@Suite struct AtomicFileWriterTests {
    /// The targets of this process's descriptors, as /proc shows them.
    static func openFiles() -> [String] {
        let folder = "/proc/self/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
    }

    /// The URL overloads name the same files as the path ones (a percent-encoded space is a
    /// space), and a URL that is no file URL is refused by name.
    @Test func fileURLsNameTheFilesTheirPathsName() async throws {
        let folder = try TemporaryDirectory("photocap-url")
        let (session, output) = try await runningSession(.synthetic(.init(sensorMounting: SensorMounting(rotation: 90),
                                                                         maximumSize: PixelSize(width: 320, height: 240))))
        output.orientationCompensation = .off
        let photo = try await output.capturePhoto(with: PhotoSettings(format: .jpeg))
        await session.stopRunning()
        let url = folder.url.appendingPathComponent("a photo.jpg")
        #expect(url.absoluteString.hasSuffix("a%20photo.jpg"))
        try photo.write(to: url)
        #expect(FileManager.default.contents(atPath: folder.url.path + "/a photo.jpg") == photo.fileDataRepresentation())
        #expect(throws: PhotoCaptureError(.file(ImageFileError(.fileExists(path: url.path))))) { try photo.write(to: url) }

        // Stored as the sensor delivered it, so turning it upright changes it.
        let upright = folder.url.appendingPathComponent("upright photo.jpg")
        let outcome = try ImageOrienter().orientFile(at: url, writingTo: upright, overwrite: false)
        #expect(outcome == (try ImageOrienter().upright(fileAt: url.path)).outcome)
        #expect(try ImageOrienter().upright(fileAt: upright).data == nil, "already upright")

        let web = try #require(URL(string: "https://example.com/photo.jpg"))
        #expect(throws: ImageFileError(.notAFileURL("https://example.com/photo.jpg"))) {
            try AtomicFileWriter.write(Data([1]), to: web, overwrite: false)
        }
        #expect(throws: PhotoCaptureError(.file(ImageFileError(.notAFileURL("https://example.com/photo.jpg"))))) {
            try CaptureDevice.frameFile(url: web, format: .yuyv, size: PixelSize(width: 2, height: 2))
        }
    }

    @Test func aReplacedFileIsLetGoAndTheNewBytesAreInPlace() async throws {
        let folder = try TemporaryDirectory("photocap-replace")
        let path = folder.path("photo.jpg")
        try Data(repeating: 0xA5, count: 8 << 20).write(to: URL(fileURLWithPath: path))
        var before = stat()
        #expect(stat(path, &before) == 0)
        let replacement = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })

        try AtomicFileWriter.write(replacement, to: path, overwrite: true)

        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == replacement)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_ino != before.st_ino)
        // The background queue closes the held descriptor; bounded wait for it.
        let deleted = "\(path) (deleted)"
        let deadline = ContinuousClock.now + .seconds(5)
        while Self.openFiles().contains(deleted), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!Self.openFiles().contains(deleted))
        #expect(!Self.openFiles().contains(path))
    }

    @Test func aSymbolicLinkThatIsReplacedStaysUntouchedAndItsTargetIsKept() throws {
        let folder = try TemporaryDirectory("photocap-replace-link")
        let target = folder.path("target.jpg")
        let link = folder.path("link.jpg")
        try Data("target".utf8).write(to: URL(fileURLWithPath: target))
        #expect(symlink(target, link) == 0)

        try AtomicFileWriter.write(Data("new".utf8), to: link, overwrite: true)

        // write(to:) replaces the name itself: the link becomes the new file, the target stays.
        var status = stat()
        #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFREG)
        #expect(try Data(contentsOf: URL(fileURLWithPath: link)) == Data("new".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("target".utf8))
    }
}
