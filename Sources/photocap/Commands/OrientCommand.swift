import ArgumentParser
import Foundation
import PhotoCapture

/// `photocap orient FILE...`: turns JPEG, HEIC and TIFF files upright (pixels turned,
/// Orientation 1), atomically, through ``ImageOrienter``.
struct OrientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orient",
        abstract: "Turn JPEG, HEIC and TIFF files upright: pixels turned, Orientation 1.",
        discussion: """
            Each file's orientation metadata is applied to its pixels and the metadata is set to \
            1 (EXIF IFD0 and IFD1, with the EXIF thumbnail turned the same way). Files already \
            upright are copied unchanged (--output) or left alone (--in-place). RAW files are never \
            re-oriented: their Orientation tag is the correction.
            """)

    @Argument(help: "JPEG, HEIC or TIFF files.")
    var files: [String]

    @Option(help: "Write each result to this folder under the same name (never overwrites).")
    var output: String?

    @Flag(help: "Replace each file with its result.")
    var inPlace = false

    @Flag(help: "JPEG only: turn the coded blocks without re-encoding; refused where that is not exact.")
    var lossless = false

    @Option(help: "JPEG/HEIC quality for re-encoded images (1-100).")
    var quality = 92

    func validate() throws {
        guard (output != nil) != inPlace else {
            throw ValidationError("give exactly one of --output DIR and --in-place")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality \(quality) is not in 1...100") }
        if let output {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--output \(output) is not a folder")
            }
        }
    }

    func run() async throws {
        let orienter = ImageOrienter(quality: quality, lossless: lossless)
        var failures = 0
        for file in files {
            do {
                print(try orient(file, with: orienter))
            } catch {
                // One line per file; the library's message names no file, so the line does.
                _ = fail("\(file): \(message(for: error))")
                failures += 1
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Processes one file; returns its stdout line.
    private func orient(_ file: String, with orienter: ImageOrienter) throws(PhotoCaptureError) -> String {
        let target = output.map { URL(fileURLWithPath: $0).appendingPathComponent((file as NSString).lastPathComponent).path } ?? file
        switch try orienter.orientFile(at: file, writingTo: target, overwrite: inPlace) {
        case .alreadyUpright: return "\(file): already upright"
        case .turned(let orientation, let size): return "\(file): orientation \(orientation.exifValue) -> 1 (\(size))"
        }
    }

    /// The library's message, but an existing result says that --output never overwrites.
    private func message(for error: PhotoCaptureError) -> String {
        if case .fileExists(let path) = error.code { return "\(path) exists; photocap orient --output never overwrites" }
        return PhotoCaptureError(error.code).description
    }
}
