import FoundationEssentials
import Imaging
import PhotoCapture

/// A golden image: the picture a file must show, kept as a file (a PNG, or any format
/// ``DisplayedImage`` reads) and compared with a ``GoldenTolerance``.
///
/// ```swift
/// let golden = GoldenImage("Goldens/held-turned.png")  // beside this test file
/// try golden.verify(fileAt: photoPath)
/// ```
///
/// A relative path is taken from the folder of the test file that makes the golden (its
/// `#filePath`, as swift-snapshot-testing does), not from the working directory.
///
/// On a difference the picture shown (`NAME.actual.png`) and a difference image
/// (`NAME.diff.png`; the picture and the golden side by side when the sizes differ) are written
/// into ``artifactsFolder``: by default ``defaultArtifactsFolder``, outside the source tree,
/// and the failure sentence names both files. A golden that does not exist fails every run: the
/// picture is written there as `NAME.actual.png`, the candidate to look at, and nothing is
/// written where the golden belongs. Only record mode writes the golden — the environment
/// variable `PHOTOCAP_RECORD_GOLDENS=1`, or `recording: true` (``isRecording``) — and the result
/// says so (and is not a match, so a recorded golden is looked at before it is trusted).
public struct GoldenImage: Sendable {
    /// The environment variable that turns record mode on (any value but empty and `0`).
    public static let recordEnvironmentVariable = "PHOTOCAP_RECORD_GOLDENS"

    /// The environment variable that names the folder for failure images, overriding
    /// ``defaultArtifactsFolder``'s choice.
    public static let artifactsEnvironmentVariable = "PHOTOCAP_GOLDEN_ARTIFACTS"

    /// Whether the environment asks for record mode.
    public static var isRecordModeRequested: Bool {
        guard let value = ProcessInfo.processInfo.environment[recordEnvironmentVariable] else { return false }
        return !value.isEmpty && value != "0"
    }

    /// Where failure images go unless a golden names its own ``artifactsFolder``, never beside
    /// the goldens in the source tree:
    /// 1. the folder `PHOTOCAP_GOLDEN_ARTIFACTS` names, when set;
    /// 2. else, when the running program lies inside a SwiftPM build folder (a `.build` folder,
    ///    as `swift test` runs it), `golden-artifacts` in that folder;
    /// 3. else `photocap-golden-artifacts` in `TMPDIR` (`/tmp` when unset).
    public static var defaultArtifactsFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment[artifactsEnvironmentVariable], !folder.isEmpty { return folder }
        if let build = buildFolder(ofProgramAt: programPath) {
            return URL(fileURLWithPath: build).appendingPathComponent("golden-artifacts").path
        }
        let temporary = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return URL(fileURLWithPath: temporary).appendingPathComponent("photocap-golden-artifacts").path
    }

    /// The running program's path (the test bundle under `swift test`), if the kernel says.
    static var programPath: String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// The innermost folder named `.build` that holds `program`, if any.
    static func buildFolder(ofProgramAt program: String?) -> String? {
        guard let program else { return nil }
        var folder = URL(fileURLWithPath: program).deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            if folder.lastPathComponent == ".build" { return folder.path }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// The golden's path: absolute when given relative (see ``init(_:tolerance:artifactsFolder:recording:filePath:)``).
    public var path: String
    /// How far a picture may differ and still match.
    public var tolerance: GoldenTolerance
    /// Where the picture and difference image go on a difference.
    public var artifactsFolder: String
    /// Record mode: write the golden instead of comparing. The only way a golden is written.
    public var isRecording: Bool

    /// A golden at `path`; failure images go to `artifactsFolder` (``defaultArtifactsFolder``
    /// when nil); record mode follows `PHOTOCAP_RECORD_GOLDENS` unless `recording` says.
    ///
    /// A relative `path` is taken from the folder of `filePath`, the test file that calls this
    /// (leave it to its default): `GoldenImage("Goldens/x.png")` in `Tests/AppTests/T.swift` is
    /// `Tests/AppTests/Goldens/x.png`, from whichever folder the tests run.
    public init(_ path: String, tolerance: GoldenTolerance = GoldenTolerance(), artifactsFolder: String? = nil,
                recording: Bool? = nil, filePath: StaticString = #filePath) {
        self.path = path.hasPrefix("/") ? path
            : URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent().appendingPathComponent(path).standardized.path
        self.tolerance = tolerance
        self.artifactsFolder = artifactsFolder ?? Self.defaultArtifactsFolder
        self.isRecording = recording ?? Self.isRecordModeRequested
    }

    /// Checks what a viewer shows for the file at `file` against the golden.
    public func compare(fileAt file: String) throws(GoldenImageError) -> GoldenResult {
        try compare(DisplayedImage(fileAt: file).image)
    }

    /// Checks `picture` (already as displayed) against the golden.
    public func compare(_ picture: RGBImage) throws(GoldenImageError) -> GoldenResult {
        if isRecording {
            guard URL(fileURLWithPath: path).pathExtension.lowercased() == "png" else {
                throw GoldenImageError(.recordingNeedsPNG, path: path)
            }
            try picture.writePNG(to: path, overwrite: true)
            return GoldenResult(outcome: .recorded, comparison: nil, goldenPath: path, actualPath: nil, differencePath: nil)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            // Never recorded unasked: the candidate goes with the failure images, for review.
            let candidate = artifactPaths().actual
            try picture.writePNG(to: candidate, overwrite: true)
            return GoldenResult(outcome: .missing, comparison: nil, goldenPath: path, actualPath: candidate, differencePath: nil)
        }
        let golden = try DisplayedImage(fileAt: path).image
        let comparison = ImageComparison(actual: picture, golden: golden, tolerance: tolerance)
        guard !comparison.isWithinTolerance else {
            return GoldenResult(outcome: .matched, comparison: comparison, goldenPath: path, actualPath: nil, differencePath: nil)
        }
        let (actualPath, differencePath) = artifactPaths()
        try picture.writePNG(to: actualPath, overwrite: true)
        let difference = comparison.failureImage(actual: picture, golden: golden)
        try difference.writePNG(to: differencePath, overwrite: true)
        return GoldenResult(outcome: .differed, comparison: comparison, goldenPath: path, actualPath: actualPath,
                            differencePath: differencePath)
    }

    /// Checks what a viewer shows for the file at `file` against the golden and throws
    /// ``GoldenImageError/Code/mismatch(_:)`` unless it matches: the error's description is the
    /// failure sentence, which Swift Testing prints for a thrown error ("Caught error: …") and
    /// XCTest for a throwing test.
    @discardableResult
    public func verify(fileAt file: String) throws(GoldenImageError) -> GoldenResult {
        try verify(DisplayedImage(fileAt: file).image)
    }

    /// Checks `picture` (already as displayed) against the golden and throws
    /// ``GoldenImageError/Code/mismatch(_:)`` unless it matches.
    @discardableResult
    public func verify(_ picture: RGBImage) throws(GoldenImageError) -> GoldenResult {
        let result = try compare(picture)
        guard result.isMatch else { throw GoldenImageError(.mismatch(result), path: path) }
        return result
    }

    /// `NAME.actual.png` and `NAME.diff.png` in ``artifactsFolder``.
    func artifactPaths() -> (actual: String, difference: String) {
        let golden = URL(fileURLWithPath: path)
        let folder = URL(fileURLWithPath: artifactsFolder)
        let name = golden.deletingPathExtension().lastPathComponent
        return (folder.appendingPathComponent("\(name).actual.png").path, folder.appendingPathComponent("\(name).diff.png").path)
    }
}
