import ArgumentParser
import FoundationEssentials
import PhotoCapture

/// `photocap develop FILE.dng`: a processed photo developed from a DNG (by LibRaw, or in bands
/// past 64 megapixels), oriented and encoded like a captured one.
struct DevelopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "develop",
        abstract: "Develop a DNG into a JPEG, HEIC or TIFF photo.",
        discussion: """
            LibRaw demosaics the DNG, applies its white balance as shot and its colour matrix to \
            sRGB (a picture over 64 megapixels is developed in bands instead, with LibRaw's levels \
            and matrix, so that it never needs more than about 6 bytes a pixel); then the photo is \
            oriented and encoded like a captured one. By default the sensor's \
            mounting is compensated in the pixels and the metadata says how the device was held \
            (photocap's DNGs record both; for other DNGs the Orientation tag is taken as how the \
            device was held). The result is written atomically next to the DNG (or to --output) \
            and never replaces a file unless --overwrite is given.

            Examples:
              photocap develop shot.dng
              photocap develop shot.dng --format heic --upright --output developed/
            """)

    @Argument(help: "A DNG file.")
    var file: String

    @Option(help: "Output format: jpeg, heic or tiff.")
    var format: PhotoFormat = .jpeg

    @OptionGroup(title: "Encoding and orientation")
    var encoding: EncodingOptions

    @OptionGroup(title: "Output")
    var outputOptions: OutputOptions

    @OptionGroup var pixelBudget: PixelBudgetOptions

    @OptionGroup(title: "Metadata")
    var metadata: MetadataOptions

    func validate() throws {
        guard format.isProcessed, format != .uncompressed else { throw ValidationError("--format must be jpeg, heic or tiff") }
    }

    func run() async throws {
        pixelBudget.limitMemory(.develop(fileAt: file))
        do {
            try develop()
        } catch {
            // One file, no request to name.
            throw fail(PhotoCaptureError(error.code).description)
        }
    }

    private func develop() throws(PhotoCaptureError) {
        try RawDevelopment.checkPixelBudget(ofFileAt: file)
        // Refused before any development: a file that is no DNG, or a result that cannot be
        // saved. The file is read again to develop it: not held meanwhile.
        let data: [UInt8]
        do { data = try InputFile.read(file) } catch { throw PhotoCaptureError(.unreadableRaw(path: file, error: .file(error))) }
        try RawDevelopment.validate(consume data, name: file)
        let target = destination()
        if URL(fileURLWithPath: target).standardizedFileURL == URL(fileURLWithPath: file).standardizedFileURL {
            throw PhotoCaptureError(.file(ImageFileError(.sameAsSource(path: target))))
        }
        if !outputOptions.overwrite, FileManager.default.fileExists(atPath: target) { throw PhotoCaptureError(.file(ImageFileError(.fileExists(path: target)))) }
        let xmp = try metadata.xmpPacket()
        var settings = PhotoSettings(format: format)
        encoding.apply(to: &settings)
        metadata.apply(to: &settings, xmp: xmp)
        settings.orientationCompensation = .mode(encoding.compensation.orientationCompensation)
        let photo = try RawDevelopment.developPhoto(fromDNGAt: file, settings: settings, name: file)
        try photo.write(to: target, overwrite: outputOptions.overwrite)
        if outputOptions.json {
            print(PhotoReport(photo: photo, path: target, previewPath: nil, device: "dng:\(file)").jsonLine())
        } else {
            let r = photo.resolvedSettings
            print("\(target): \(r.format) \(r.photoDimensions), orientation \(r.writtenOrientation.exifValue), "
                  + "compensation \(r.isSensorOrientationCompensationApplied ? "applied" : "off"), developed from \(file)")
        }
    }

    /// The output path: --output (a file, or a folder that gets the DNG's name) or next to the
    /// DNG, with the format's extension.
    private func destination() -> String {
        let name = file.lastPathComponent.deletingPathExtension + "." + (format.fileExtension ?? "out")
        guard let output = outputOptions.output else { return file.deletingLastPathComponent.appendingPathComponent(name) }
        var isFolder = false
        if output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder) {
            return output.appendingPathComponent(name)
        }
        return output
    }
}
