import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PhotoCapture

/// `photocap orient FILE|FOLDER...`: turns JPEG, HEIC and TIFF files upright (pixels turned,
/// Orientation 1), atomically, through ``ImageOrienter``, several files at once on every core.
struct OrientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orient",
        abstract: "Turn JPEG, HEIC and TIFF files upright: pixels turned, Orientation 1.",
        discussion: """
            Each file's orientation metadata is applied to its pixels and the metadata is set to \
            1 (EXIF IFD0 and IFD1, with the EXIF thumbnail turned the same way). A HEIC is shown \
            upright by its irot/imir, which HEIF readers apply: it keeps its coded image and only \
            its EXIF Orientation is made to agree (see --from-exif and --pixels). Files already \
            upright are copied unchanged (--output) or left alone (--in-place). RAW files are never \
            re-oriented: their Orientation tag is the correction. Folders are searched for image \
            files (with --recursive, their subfolders too; results keep the same relative paths \
            under --output). Files are turned in parallel, one per core; a refused file never \
            stops the rest, the run ends with a summary and exits 1 if any file was refused.
            """)

    @Argument(help: "JPEG, HEIC or TIFF files, or folders of them.")
    var files: [String]

    @Flag(help: "Search the folders given in their subfolders too.")
    var recursive = false

    @Flag(help: "One JSON line per file (path, outcome, orientation or error), then a summary line.")
    var json = false

    @Option(help: "Write each result to this folder under the same name (never overwrites).")
    var output: String?

    @Flag(help: "Replace each file with its result (symlinks followed; mode, owner and group kept; hard-linked files refused).")
    var inPlace = false

    @Flag(help: "With --in-place: keep each file's modification time.")
    var keepTime = false

    @Flag(help: "JPEG only: turn the coded blocks without re-encoding; refused where that is not exact.")
    var lossless = false

    @Flag(help: ArgumentHelp("HEIC only: turn the pixels and re-encode them, for programs that ignore irot/imir.",
                             discussion: "Without it a HEIC keeps its coded image, shown upright by its irot/imir, and only its EXIF Orientation is made to agree. With it the colour profile, XMP and EXIF are carried, and alpha, depth and gain-map images turn with the picture; one that cannot be turned is dropped, with a warning."))
    var pixels = false

    @Flag(help: ArgumentHelp("HEIC only: take the orientation from the EXIF inside and write it into irot/imir.",
                             discussion: "For HEICs whose writer put the orientation only in EXIF, which HEIF readers do not apply. The coded images are kept byte for byte. With --pixels the pixels are then turned by it."))
    var fromExif = false

    @Flag(help: ArgumentHelp("JPEG only: turn a file that is cut short, as far as its data goes.",
                             discussion: "A JPEG whose data stops before its picture does is refused without it. With it the picture is decoded as far as the data goes, the rest grey as decoders show it, and re-encoded, with a warning. Not with --lossless."))
    var acceptTruncated = false

    @Option(help: "Quality of re-encoded images (1-100). Default: 92 for JPEG; for HEIC (--pixels) the quality that keeps the original's size.")
    var quality: Int?

    @OptionGroup var pixelBudget: PixelBudgetOptions

    func validate() throws {
        guard (output != nil) != inPlace else {
            throw ValidationError("give exactly one of --output DIR and --in-place")
        }
        if keepTime && !inPlace { throw ValidationError("--keep-time applies to --in-place") }
        if acceptTruncated && lossless {
            throw ValidationError("--accept-truncated re-encodes what the data holds; it cannot be combined with --lossless")
        }
        if let quality { try EncodingOptions.validate(quality: quality) }
        if let output {
            var isFolder = false
            let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isFolder)
            // A missing folder asked for by a trailing slash is made in run(), as shoot does.
            guard isFolder || (!exists && output.hasSuffix("/")) else {
                throw ValidationError("--output \(output) is not a folder")
            }
        }
    }

    func run() async throws {
        pixelBudget.limitMemory(.orient)
        if let output, !FileManager.default.fileExists(atPath: output) {
            do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
                throw fail("cannot make the folder \(output): \(error.fileErrorReason)")
            }
        }
        let items = try batchItems()
        var orienter = ImageOrienter(quality: quality ?? 92, lossless: lossless)
        orienter.heicQuality = quality
        orienter.keepsModificationTime = keepTime
        orienter.turnsHEICPixels = pixels
        orienter.takesHEICOrientationFromEXIF = fromExif
        orienter.acceptsTruncatedJPEG = acceptTruncated
        // A bar only for a person watching a batch: never in JSON, never into a file or pipe.
        let showsProgress = !json && items.count > 1 && isatty(STDERR_FILENO) != 0
        let outcomes = await orienter.orientFiles(items, overwrite: inPlace) { done, outcome in
            if showsProgress { writeToStandardError("\r\u{1B}[K") }
            report(outcome)
            if showsProgress { writeToStandardError(Self.progressBar(done, of: items.count)) }
        }
        if showsProgress { writeToStandardError("\r\u{1B}[K") }
        let summary = BatchSummary(outcomes)
        if json {
            print(summary.jsonLine())
        } else if items.count > 1 {
            note(summary.sentence)
        }
        if summary.refused > 0 { throw ExitCode(1) }
    }

    /// One file's line: on stdout when it was turned or upright, on stderr when refused (the
    /// library's message names no file, so the line does); with --json, every one on stdout.
    private func report(_ outcome: ImageOrienter.BatchOutcome) {
        let file = outcome.item.source
        if json {
            print(BatchSummary.jsonLine(for: outcome, message: message(for:)))
            return
        }
        switch outcome.result {
        case .success(.alreadyUpright): print("\(file): already upright".escapingControlCharacters)
        case .success(.turned(let orientation, let size, let warnings)):
            print("\(file): orientation \(orientation.exifValue) -> 1 (\(size))".escapingControlCharacters)
            for warning in warnings { note("\(file): warning: \(warning)") }
        case .success(.exifCorrected(let from, let to)):
            print("\(file): shown upright by irot/imir; EXIF Orientation \(from.exifValue) -> \(to.exifValue) to agree".escapingControlCharacters)
        case .success(.transformsSet(let from, let to)):
            print("\(file): irot/imir \(from.exifValue) -> \(to.exifValue), as its EXIF says".escapingControlCharacters)
        case .failure(let error): _ = fail("\(file): \(message(for: error))")
        }
    }

    /// `[#####.....] 12/40` for a terminal.
    static func progressBar(_ done: Int, of total: Int, width: Int = 30) -> String {
        let filled = total == 0 ? width : done * width / total
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(done)/\(total)"
    }

    /// The files to turn and where each result goes: a file to --output under its name (or to
    /// itself in place), a folder's image files (its subfolders' too with --recursive) under
    /// their path relative to the folder, the subfolders made under --output.
    private func batchItems() throws -> [ImageOrienter.BatchItem] {
        var items: [ImageOrienter.BatchItem] = []
        for argument in files {
            var isFolder = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder else {
                let target = output.map { URL(fileURLWithPath: $0).appendingPathComponent(argument.lastPathComponent).path }
                items.append(.init(source: argument, target: target ?? argument))
                continue
            }
            let found = try Self.imageFiles(in: argument, recursive: recursive)
            if found.isEmpty {
                throw fail("\(argument): no JPEG, HEIC, TIFF or RAW files in this folder\(recursive ? " or its subfolders" : "")")
            }
            for relative in found {
                // Spelt as the user gave the folder, so the report names files the same way.
                let source = argument.appendingPathComponent(relative)
                guard let output else { items.append(.init(source: source, target: source)); continue }
                let target = URL(fileURLWithPath: output).appendingPathComponent(relative)
                do {
                    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw fail("cannot make the folder \(target.deletingLastPathComponent().path): \(error.fileErrorReason)")
                }
                items.append(.init(source: source, target: target.path))
            }
        }
        return items
    }

    /// Extensions of the files a folder is searched for: what orient turns, and RAW files,
    /// which it names as never re-oriented.
    static let imageExtensions = Set(["jpg", "jpeg", "jpe", "heic", "heif", "hif", "tif", "tiff"])
        .union(ImageOrienter.rawExtensions)

    /// Paths, relative to `folder` and sorted, of its image files (regular files, links
    /// followed), in its subfolders too when `recursive`.
    static func imageFiles(in folder: String, recursive: Bool) throws -> [String] {
        let names: [String]
        do {
            names = recursive ? try FileManager.default.subpathsOfDirectory(atPath: folder)
                              : try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw fail("cannot read the folder \(folder): \(error.fileErrorReason)")
        }
        return names.filter { name in
            var isFolder = false
            let path = folder.appendingPathComponent(name)
            return imageExtensions.contains(name.pathExtension.lowercased())
                && FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder
        }.sorted()
    }

    /// The library's message, but an existing result says that --output never overwrites, and a
    /// refused lossless turn names the option that asked for it.
    private func message(for error: ImageFileError) -> String {
        switch error.code {
        case .fileExists(let path): return "\(path) exists; photocap orient --output never overwrites"
        case .losslessRequiresJPEG(let format): return "--lossless applies to JPEG files only; this is \(format.rawValue.uppercased())"
        case .losslessNotExact: return error.description + "; run without --lossless"
        case .damaged(.truncated(format: "JPEG", _)) where !lossless:
            return error.description + "; --accept-truncated turns what its data holds"
        default: return error.description
        }
    }
}
