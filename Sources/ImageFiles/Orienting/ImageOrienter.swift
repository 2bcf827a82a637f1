#if canImport(Glibc)
import Glibc
#endif
import Codecs
import FoundationEssentials
import Imaging

/// Turns JPEG, HEIC and TIFF files upright: the orientation their metadata asks of viewers is
/// applied to the pixels and the metadata says 1, for consumers that ignore it. What
/// `photocap orient` does, as library API.
///
/// JPEGs are decoded, turned and re-encoded at ``quality`` (CMYK and YCCK ones in their own
/// colour model) — or, with ``isLossless``, their
/// coded blocks are turned without re-encoding where that is exact (refused where it is not).
/// JPEG EXIF is edited, not rebuilt: IFD0/IFD1 Orientation 1, PixelX/YDimension swapped when
/// the turn swaps them, the thumbnail turned (written in its slot, or appended at the end of
/// the block); every other byte stays where it was, so maker notes keep their offsets. A
/// thumbnail that is not a decodable JPEG (a placeholder such as "<Dummy thumbnail image
/// data>") is left as it is, with its IFD1 Orientation. XMP says orientation 1; JFIF, ICC
/// profiles, comments, IPTC and the other descriptive segments and any trailer after the image
/// are carried over. Pictures aligned with the main one turn with it: the images of an MPF index
/// (previews, Ultra HDR gain maps) and those an Android portrait carries in its XMP (depth map,
/// original); one that cannot be turned is dropped, named in the outcome's warnings.
///
/// HEIC orientation is the `irot`/`imir` properties, which HEIF readers must apply: a HEIC is
/// shown upright as it is coded, and keeps every byte but its EXIF Orientation, which is set in
/// place to agree with those properties (as photocap and Apple write it). With
/// ``turnsHEICPixels`` the pixels are turned instead — for consumers that ignore the properties
/// — and re-encoded (at ``heicQuality``, by default at the original's bytes per pixel) with the ICC profile, nclx colour, XMP (Orientation 1) and
/// other metadata items carried and the EXIF edited as for JPEG; the auxiliary images (alpha,
/// depth, gain maps) turn with the picture, and one that cannot be turned is dropped and named
/// in the outcome.
///
/// TIFFs are turned in their own kind — bit depth, samples, photometric interpretation,
/// compression — and every other byte of the file is kept: text tags,
/// dates, EXIF and GPS, ICC, IPTC, XMP (Orientation 1) and other pages. Tiled, JPEG-compressed,
/// YCbCr and georeferenced TIFFs are refused, naming why. RAW files (DNG and camera RAW names) are
/// refused: their Orientation tag is the correction.
public struct ImageOrienter: Sendable {
    /// JPEG/HEIC quality of re-encoded pictures, 1...100.
    public var quality: Int
    /// JPEG only: turn the coded blocks without re-encoding, refused where that is not exact.
    public var isLossless: Bool
    /// HEIC only: turn the pixels and re-encode them, for consumers that ignore `irot`/`imir`.
    /// Off: a HEIC keeps its coded image (HEIF readers apply those properties).
    public var turnsHEICPixels = false
    /// The quality of re-encoded HEIC pixels, 1...100; nil: the quality at which a sample of
    /// the picture comes out at the original file's bytes per pixel, so the size stays close.
    public var heicQuality: Int?
    /// HEIC only: the EXIF Orientation is the truth — for files whose writer put the orientation
    /// only there — and is written into the `irot`/`imir` properties of the image and its
    /// thumbnails, which HEIF readers apply; the coded images are kept byte for byte. With
    /// ``turnsHEICPixels`` the pixels are then turned by it.
    public var takesHEICOrientationFromEXIF = false
    /// JPEG only: a file cut short (its data stops before its image does) is decoded as far as
    /// its data goes and re-encoded, the rest grey, with a warning in the outcome; refused
    /// otherwise, and always with ``isLossless``.
    public var acceptsTruncatedJPEG = false
    /// In place: keep the file's modification time (its mode, owner and group are always kept;
    /// see ``AtomicFileWriter/replace(_:with:keepingModificationTime:)-(String,_,_)``).
    public var keepsModificationTime = false

    /// Quality of re-made EXIF thumbnails.
    static let thumbnailQuality = 90

    /// File name extensions of RAW formats, refused without reading them.
    public static let rawExtensions: Set<String> = ["dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2", "pef", "srw"]

    /// An orienter re-encoding at `quality` (1...100), or turning JPEGs losslessly.
    public init(quality: Int = 92, lossless: Bool = false) {
        self.quality = quality
        self.isLossless = lossless
    }

    /// What became of one file.
    public enum Outcome: Sendable, Equatable {
        /// The file was already upright; nothing was turned.
        case alreadyUpright
        /// The pixels were turned from `orientation`; the result is `size`. `warnings` say what
        /// the user should know was lost: an auxiliary image (depth, gain map) of a re-encoded
        /// HEIC or a companion picture that could not be turned, the missing part of a
        /// truncated JPEG.
        case turned(from: Orientation, size: PixelSize, warnings: [Warning] = [])
        /// No pixel changed: the picture is shown upright as it is (a HEIC, by its `irot`/`imir`),
        /// and the EXIF Orientation inside was set from `from` to `to`, which agrees, in place.
        case exifCorrected(from: Orientation, to: Orientation)
        /// No pixel changed: a HEIC's `irot`/`imir`, which did `from`, now do `to`, what its EXIF
        /// says (``ImageOrienter/takesHEICOrientationFromEXIF``).
        case transformsSet(from: Orientation, to: Orientation)
    }

    /// Refuses a RAW file by its name, unread.
    static func refuseRawName(_ path: String) throws(ImageFileError) {
        let url = URL(fileURLWithPath: path)
        if rawExtensions.contains(url.pathExtension.lowercased()) { throw ImageFileError(.rawNotReoriented) }
    }

    /// The upright form of an image file's bytes.
    public struct Result: Sendable {
        /// The file's format.
        public let format: ImageFileFormat
        /// The orientation the file asked of viewers.
        public let originalOrientation: Orientation
        /// The upright file, or nil when the file was already upright.
        public var data: Data? { bytes.map { Data($0) } }
        /// The upright file as the codecs made it: written from here, a file is not copied
        /// into a `Data` first (a whole copy of it).
        let bytes: [UInt8]?
        /// The upright picture's size.
        public let size: PixelSize
        /// What was done.
        public let outcome: Outcome
    }

    /// Reads `path` and returns its upright form, checking everything before any pixel work.
    public func upright(fileAt path: String) throws(ImageFileError) -> Result {
        let bytes = try Self.contents(of: path)
        return try upright(bytes, try inspected(bytes))
    }

    /// Reads the file at the `file:` URL `url` and returns its upright form, as
    /// ``upright(fileAt:)-(String)`` does.
    public func upright(fileAt url: URL) throws(ImageFileError) -> Result {
        try upright(fileAt: url.filePath())
    }

    /// The bytes of the image file at `path`; RAW files are refused by name, unread.
    private static func contents(of path: String) throws(ImageFileError) -> [UInt8] {
        try refuseRawName(path)
        // Only regular files: a directory, FIFO or device is named as such, not read. As bytes,
        // not Data: each copy of a photo is a page fault per 4 KiB of fresh memory.
        do { return try InputFile.read(path) } catch {
            throw ImageFileError(.unreadable(error))
        }
    }

    /// The upright form of an image file's bytes.
    public func upright(_ data: Data) throws(ImageFileError) -> Result {
        let bytes = [UInt8](data)
        return try upright(bytes, try inspected(bytes))
    }

    /// What the file is, refusing before any pixel work what cannot be turned.
    func inspected(_ bytes: [UInt8]) throws(ImageFileError) -> ImageFileInfo {
        let info: ImageFileInfo
        do { info = try ImageFileInfo(data: bytes, acceptingTruncatedJPEG: acceptsTruncatedJPEG && !isLossless) } catch {
            throw ImageFileError(.damaged(error))
        }
        if info.format == .dng { throw ImageFileError(.rawNotReoriented) }
        if isLossless, info.format != .jpeg { throw ImageFileError(.losslessRequiresJPEG(info.format)) }
        for quality in [quality, heicQuality ?? quality] where !(1...100).contains(quality) {
            throw ImageFileError(.qualityOutOfRange(quality))
        }
        return info
    }

    private func upright(_ original: [UInt8], _ originalInfo: ImageFileInfo) throws(ImageFileError) -> Result {
        var (bytes, info) = (original, originalInfo)
        if info.format == .heic, takesHEICOrientationFromEXIF, let said = info.exifOrientation, said != info.orientation {
            let edited = try ImageFileError.damaged { () throws(CodecError) in
                try HEIFOrientationEditor.setting(said, ofItems: HEICFileInfo(data: original).imageItems, in: original)
            }
            bytes = edited
            info = try ImageFileError.damaged { () throws(CodecError) in try ImageFileInfo(data: edited) }
            if !turnsHEICPixels || said == .up {
                return Result(format: .heic, originalOrientation: originalInfo.orientation, bytes: bytes, size: info.displayedSize,
                              outcome: .transformsSet(from: originalInfo.orientation, to: said))
            }
        }
        let orientation = info.orientation
        if info.format == .heic, orientation == .up || !turnsHEICPixels {
            return try heicWithAgreeingEXIF(bytes, info)
        }
        guard orientation != .up else {
            return Result(format: info.format, originalOrientation: orientation, bytes: nil, size: info.displayedSize, outcome: .alreadyUpright)
        }
        let turned: (bytes: [UInt8], size: PixelSize, warnings: [Warning])
        switch info.format {
        case .jpeg:
            turned = isLossless ? try losslessJPEG(bytes, orientation) : try lossyJPEG(bytes, orientation, truncated: info.isTruncated)
        case .heic: turned = try heic(bytes, orientation)
        case .tiff: turned = try tiff(bytes)
        case .dng: throw ImageFileError(.rawNotReoriented)
        }
        return Result(format: info.format, originalOrientation: orientation, bytes: turned.bytes, size: turned.size,
                      outcome: .turned(from: orientation, size: turned.size, warnings: turned.warnings))
    }

    /// Turns the file at `path` upright into `target`, atomically; `target` may be `path` itself
    /// with `overwrite` (in place, by ``AtomicFileWriter/replace(_:with:keepingModificationTime:)-(String,_,_)``:
    /// symlinks followed, mode, owner and group kept, hard-linked files refused). An upright file is copied to another `target` unchanged and
    /// left alone in place. Without `overwrite` an existing `target` is refused
    /// (``ImageFileError/Code/fileExists(path:)``) once the file is known to be one that
    /// can be turned, before any pixel work.
    @discardableResult
    public func orientFile(at path: String, writingTo target: String, overwrite: Bool) throws(ImageFileError) -> Outcome {
        try Self.refuseRawName(path)
        let (descriptor, fileSize): (Int32, Int)
        do { (descriptor, fileSize) = try InputFile.openRegular(path) } catch { throw ImageFileError(.unreadable(error)) }
        defer { close(descriptor) }
        let inPlace = URL(fileURLWithPath: target).standardizedFileURL == URL(fileURLWithPath: path).standardizedFileURL
        if let outcome = try orientTIFFFile(descriptor, fileSize: fileSize, at: path, writingTo: target, inPlace: inPlace,
                                            overwrite: overwrite) {
            return outcome
        }
        // Only regular files (openRegular): a directory, FIFO or device is named as such, not
        // read. As bytes, not Data: each copy of a photo is a page fault per 4 KiB of fresh memory.
        let bytes: [UInt8]
        do { bytes = try InputFile.read(descriptor: descriptor, path: path) } catch { throw ImageFileError(.unreadable(error)) }
        let info = try inspected(bytes)
        try refuseExisting(target, overwrite: overwrite)
        let result = try upright(bytes, info)
        guard let changed = result.bytes else {
            if !inPlace { try AtomicFileWriter.write(contentsOf: bytes, to: target, overwrite: overwrite) }
            return .alreadyUpright
        }
        try save(path, to: target, inPlace: inPlace, overwrite: overwrite) { (file) throws(ImageFileError) in try file.write(changed) }
        return result.outcome
    }

    /// Refuses an existing `target` unless `overwrite`, once the file is known to be one that
    /// can be turned, before any pixel work.
    func refuseExisting(_ target: String, overwrite: Bool) throws(ImageFileError) {
        if !overwrite, FileManager.default.fileExists(atPath: target) { throw ImageFileError(.fileExists(path: target)) }
    }

    /// Writes what `body` writes as `target`: over `path` itself, keeping what is the user's
    /// (``AtomicFileWriter/replace(_:with:keepingModificationTime:)-(String,_,_)``), when it is
    /// `path` and `overwrite` allows; else as a new file.
    func save(_ path: String, to target: String, inPlace: Bool, overwrite: Bool,
              _ body: (PendingFile) throws(ImageFileError) -> Void) throws(ImageFileError) {
        if overwrite, inPlace {
            try AtomicFileWriter.replace(path, keepingModificationTime: keepsModificationTime, body)
        } else {
            try AtomicFileWriter.write(to: target, overwrite: overwrite, body)
        }
    }

    /// Turns the file at the `file:` URL `url` upright into `target`, as
    /// ``orientFile(at:writingTo:overwrite:)-(String,String,_)`` does.
    @discardableResult
    public func orientFile(at url: URL, writingTo target: URL, overwrite: Bool) throws(ImageFileError) -> Outcome {
        try orientFile(at: url.filePath(), writingTo: target.filePath(), overwrite: overwrite)
    }
}
