import Codecs
import FoundationEssentials
import Imaging
import PhotoCapture

/// A golden image: the picture a file must show, kept as a file (a PNG, or any format
/// ``DisplayedImage`` reads) and compared with a ``GoldenTolerance``.
///
/// ```swift
/// let golden = GoldenImage("Tests/Goldens/held-turned.png")
/// #expect(try golden.compare(fileAt: photoPath).failure == nil)
/// ```
///
/// On a difference the picture shown (`NAME.actual.png`) and, when the sizes agree, a
/// difference image (`NAME.diff.png`) are written beside the golden or into
/// ``artifactsFolder``. With the environment variable `PHOTOCAP_RECORD_GOLDENS=1` (or
/// ``isRecording``), or when the golden does not exist yet, the picture is written as the
/// golden instead and the result says so (and is not a match, so a recorded golden is looked at
/// before it is trusted).
public struct GoldenImage: Sendable {
    /// The environment variable that turns record mode on (any value but empty and `0`).
    public static let recordEnvironmentVariable = "PHOTOCAP_RECORD_GOLDENS"

    /// Whether the environment asks for record mode.
    public static var isRecordModeRequested: Bool {
        guard let value = ProcessInfo.processInfo.environment[recordEnvironmentVariable] else { return false }
        return !value.isEmpty && value != "0"
    }

    /// The golden's path.
    public var path: String
    /// How far a picture may differ and still match.
    public var tolerance: GoldenTolerance
    /// Where the picture and difference image go on a difference; nil: beside the golden.
    public var artifactsFolder: String?
    /// Record mode: write the golden instead of comparing.
    public var isRecording: Bool

    /// A golden at `path`; record mode follows `PHOTOCAP_RECORD_GOLDENS` unless `recording` says.
    public init(_ path: String, tolerance: GoldenTolerance = GoldenTolerance(), artifactsFolder: String? = nil,
                recording: Bool? = nil) {
        self.path = path
        self.tolerance = tolerance
        self.artifactsFolder = artifactsFolder
        self.isRecording = recording ?? Self.isRecordModeRequested
    }

    /// Checks what a viewer shows for the file at `file` against the golden.
    public func compare(fileAt file: String) throws(GoldenImageError) -> GoldenResult {
        try compare(DisplayedImage(fileAt: file).picture)
    }

    /// Checks `picture` (already as displayed) against the golden.
    public func compare(_ picture: RGBImage) throws(GoldenImageError) -> GoldenResult {
        if isRecording || !FileManager.default.fileExists(atPath: path) {
            guard URL(fileURLWithPath: path).pathExtension.lowercased() == "png" else {
                throw GoldenImageError(.recordingNeedsPNG, path: path)
            }
            try picture.writePNG(to: path, overwrite: true)
            return GoldenResult(outcome: .recorded, comparison: nil, goldenPath: path, actualPath: nil, differencePath: nil)
        }
        let golden = try DisplayedImage(fileAt: path).picture
        let comparison = ImageComparison(actual: picture, golden: golden, tolerance: tolerance)
        guard !comparison.isWithinTolerance else {
            return GoldenResult(outcome: .matched, comparison: comparison, goldenPath: path, actualPath: nil, differencePath: nil)
        }
        let (actualPath, differencePath) = artifactPaths()
        try picture.writePNG(to: actualPath, overwrite: true)
        var writtenDifference: String?
        if let difference = ImageComparison.differenceImage(actual: picture, golden: golden) {
            try difference.writePNG(to: differencePath, overwrite: true)
            writtenDifference = differencePath
        }
        return GoldenResult(outcome: .differed, comparison: comparison, goldenPath: path, actualPath: actualPath,
                            differencePath: writtenDifference)
    }

    /// `NAME.actual.png` and `NAME.diff.png`, beside the golden or in ``artifactsFolder``.
    func artifactPaths() -> (actual: String, difference: String) {
        let golden = URL(fileURLWithPath: path)
        let folder = artifactsFolder.map { URL(fileURLWithPath: $0) } ?? golden.deletingLastPathComponent()
        let name = golden.deletingPathExtension().lastPathComponent
        return (folder.appendingPathComponent("\(name).actual.png").path, folder.appendingPathComponent("\(name).diff.png").path)
    }
}
