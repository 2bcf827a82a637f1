import ArgumentParser
import Codecs
import Foundation
import Imaging
import PhotoCapture

/// `photocap orient FILE...`: turns JPEG, HEIC and TIFF files upright (pixels turned,
/// Orientation 1), atomically.
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

    @Flag(help: "Replace each file with its result (symlinks followed; mode, owner and group kept; hard-linked files refused).")
    var inPlace = false

    @Flag(help: "With --in-place: keep each file's modification time.")
    var keepTime = false

    @Flag(help: "JPEG only: turn the coded blocks without re-encoding; refused where that is not exact.")
    var lossless = false

    @Option(help: "JPEG/HEIC quality for re-encoded images (1-100).")
    var quality = 92

    @OptionGroup var pixelBudget: PixelBudgetOptions

    /// Quality of re-made EXIF thumbnails.
    static let thumbnailQuality = 90

    static let rawExtensions: Set<String> = ["dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2", "pef", "srw"]
    static let rawRefusal = "RAW files are never re-oriented: their Orientation tag is the correction"

    func validate() throws {
        guard (output != nil) != inPlace else {
            throw ValidationError("give exactly one of --output DIR and --in-place")
        }
        if keepTime && !inPlace { throw ValidationError("--keep-time applies to --in-place") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality \(quality) is not in 1...100") }
        if let output {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--output \(output) is not a folder")
            }
        }
    }

    /// A refusal or failure for one file: its message.
    struct Refusal: Error { let message: String }

    func run() async throws {
        var failures = 0
        for file in files {
            do {
                print(try orient(file).escapingControlCharacters)
            } catch let refusal as Refusal {
                _ = fail("\(file): \(refusal.message)")
                failures += 1
            } catch {
                _ = fail("\(file): \(error)")
                failures += 1
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Processes one file; returns its stdout line.
    func orient(_ file: String) throws -> String {
        let url = URL(fileURLWithPath: file)
        if Self.rawExtensions.contains(url.pathExtension.lowercased()) { throw Refusal(message: Self.rawRefusal) }
        let data: [UInt8]
        do { data = try InputFile.read(file) } catch { throw Refusal(message: error.reason) }
        let info: ImageFileInfo
        do { info = try ImageFileInfo(data: data) } catch { throw Refusal(message: "\(error)") }
        if info.format == .dng { throw Refusal(message: Self.rawRefusal) }
        if lossless, info.format != .jpeg {
            throw Refusal(message: "--lossless applies to JPEG files only; this is \(info.format.rawValue.uppercased())")
        }
        let target = output.map { URL(fileURLWithPath: $0).appendingPathComponent(url.lastPathComponent).path } ?? file
        if output != nil, FileManager.default.fileExists(atPath: target) {
            throw Refusal(message: "\(target) exists; photocap orient --output never overwrites")
        }

        // For HEIC the irot/imir properties decide (EXIF inside HEIF is informative), but an
        // EXIF orientation other than 1 is made consistent too.
        let orientation = info.orientation
        let upright = orientation == .up && (info.format != .heic || (info.exifOrientation ?? .up) == .up)
        if upright {
            if output != nil { try write(data, to: target) }
            return "\(file): already upright"
        }

        let result: (bytes: [UInt8], size: PixelSize)
        do {
            switch info.format {
            case .jpeg: result = lossless ? try losslessJPEG(data, orientation) : try lossyJPEG(data, orientation)
            case .heic: result = try heic(data)
            case .tiff: result = try tiff(data, exif: info.exif)
            case .dng: throw Refusal(message: Self.rawRefusal)
            }
        } catch let notExact as JPEGLosslessTransform.NotExact {
            throw Refusal(message: notExact.description)
        }
        try write(result.bytes, to: target)
        return "\(file): orientation \(orientation.exifValue) -> 1 (\(result.size))"
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        do {
            if inPlace {
                try AtomicFileWriter.replace(path, with: Data(bytes), keepingModificationTime: keepTime)
            } else {
                try AtomicFileWriter.write(Data(bytes), to: path, overwrite: false)
            }
        } catch {
            throw Refusal(message: "\(error)")
        }
    }

    // MARK: JPEG

    /// Decoded, turned as a whole image (odd sizes kept), re-encoded at --quality; EXIF rewritten,
    /// XMP (orientation 1), ICC profile, comments and other descriptive segments carried over.
    private func lossyJPEG(_ data: [UInt8], _ orientation: Orientation) throws -> (bytes: [UInt8], size: PixelSize) {
        let decoded = try JPEGDecoder().decodeRGB(data)
        // The whole-image transform keeps odd sizes; the camera's strip converter works on even
        // 4:2:0 crops and would drop an odd last row or column.
        let planar = try RGBImage(size: decoded.size, pixels: decoded.rgb).transformed(by: orientation).planarImage()
        let encoded = try JPEGEncoder().encode(planar, quality: quality)
        let withEXIF = try withNormalizedEXIF(of: data, into: encoded, size: planar.size, orientation: orientation)
        return (try JPEGFile.withUprightXMP(JPEGFile.carryingDescriptiveSegments(from: data, into: withEXIF)), planar.size)
    }

    /// tjTransform where exact (else ``JPEGLosslessTransform/NotExact``); EXIF and XMP rewritten.
    private func losslessJPEG(_ data: [UInt8], _ orientation: Orientation) throws -> (bytes: [UInt8], size: PixelSize) {
        let transformed = try JPEGLosslessTransform.transform(data, applying: orientation)
        let size = try JPEGDecoder().header(transformed).size
        // tjTransform copies every other segment itself.
        return (try JPEGFile.withUprightXMP(withNormalizedEXIF(of: data, into: transformed, size: size, orientation: orientation)), size)
    }

    /// `jpeg` with the EXIF block of `original` rewritten for upright pixels of `size`.
    private func withNormalizedEXIF(of original: [UInt8], into jpeg: [UInt8], size: PixelSize,
                                    orientation: Orientation) throws -> [UInt8] {
        guard let block = try JPEGFile.exifBlock(in: original) else { return jpeg }
        let thumbnail = try EXIFBuilder.orientationAndThumbnail(of: block).thumbnailJPEG
        let turned = try thumbnail.map { try turnedThumbnail($0, by: orientation) }
        return try JPEGFile.insertingEXIF(EXIFBuilder.normalizing(block, pixelSize: size, thumbnailJPEG: turned), into: jpeg)
    }

    /// A JPEG thumbnail decoded, turned by `orientation` and re-encoded.
    private func turnedThumbnail(_ jpeg: [UInt8], by orientation: Orientation) throws -> [UInt8] {
        let decoded: (size: PixelSize, rgb: [UInt8])
        do { decoded = try JPEGDecoder().decodeRGB(jpeg) } catch {
            throw Refusal(message: "the EXIF thumbnail cannot be decoded (\(error)); the file is left as it is")
        }
        let turned = RGBImage(size: decoded.size, pixels: decoded.rgb).transformed(by: orientation)
        return try JPEGEncoder().encode(turned.planarImage(), quality: Self.thumbnailQuality)
    }

    // MARK: HEIC

    /// Decoded as a viewer shows it, re-encoded with orientation .up; EXIF and thumbnail re-made.
    private func heic(_ data: [UInt8]) throws -> (bytes: [UInt8], size: PixelSize) {
        let decoded = try HEICDecoder.decodeRGB(data, applyingTransformations: true)
        let image = try RGBImage(size: decoded.size, pixels: decoded.rgb).planarImage()
        let thumbnail = try HEICDecoder.decodeThumbnailRGB(data, applyingTransformations: true).map {
            try RGBImage(size: $0.size, pixels: $0.rgb).planarImage()
        }
        var exif: [UInt8]?
        if let block = try HEICFileInfo(data: data).exifBlock {
            let parts = try EXIFBuilder.orientationAndThumbnail(of: block)
            // An IFD1 thumbnail inside the Exif item is turned by its own EXIF orientation.
            let exifThumbnail = try parts.thumbnailJPEG.map {
                try turnedThumbnail($0, by: Orientation(exifValue: parts.thumbnailOrientation ?? parts.orientation ?? 1))
            }
            exif = try EXIFBuilder.normalizing(block, pixelSize: image.size, thumbnailJPEG: exifThumbnail)
        }
        let bytes = try HEICEncoder().encode(image, quality: quality, orientation: .up, thumbnail: thumbnail, exif: exif)
        return (bytes, image.size)
    }

    // MARK: TIFF

    /// Stored RGB turned, written as an RGB TIFF with Orientation 1 and Make/Model/Software/DateTime.
    private func tiff(_ data: [UInt8], exif: [String: String]) throws -> (bytes: [UInt8], size: PixelSize) {
        let read = try TIFFFile.read(data)
        let turned = RGBImage(size: read.size, pixels: read.rgb).transformed(by: read.orientation)
        var metadata = EXIFMetadata(orientation: .up)
        metadata.make = exif["Make"]
        metadata.model = exif["Model"]
        metadata.software = exif["Software"]
        if let stamp = exif["DateTime"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
            metadata.dateTimeOriginal = formatter.date(from: stamp)
        }
        return (try TIFFFile.encode(rgb: turned.pixels, size: turned.size, metadata: metadata), turned.size)
    }
}
