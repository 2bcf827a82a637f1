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
        case turned(from: Orientation, size: PixelSize, warnings: [String] = [])
        /// No pixel changed: the picture is shown upright as it is (a HEIC, by its `irot`/`imir`),
        /// and the EXIF Orientation inside was set from `from` to `to`, which agrees, in place.
        case exifCorrected(from: Orientation, to: Orientation)
        /// No pixel changed: a HEIC's `irot`/`imir`, which did `from`, now do `to`, what its EXIF
        /// says (``ImageOrienter/takesHEICOrientationFromEXIF``).
        case transformsSet(from: Orientation, to: Orientation)
    }

    /// The upright form of an image file's bytes.
    public struct Result: Sendable {
        /// The file's format.
        public let format: ImageFileFormat
        /// The orientation the file asked of viewers.
        public let originalOrientation: Orientation
        /// The upright file, or nil when the file was already upright.
        public let data: Data?
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
        let url = URL(fileURLWithPath: path)
        if rawExtensions.contains(url.pathExtension.lowercased()) { throw ImageFileError(.rawNotReoriented) }
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
    private func inspected(_ bytes: [UInt8]) throws(ImageFileError) -> ImageFileInfo {
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
                return Result(format: .heic, originalOrientation: originalInfo.orientation, data: Data(bytes), size: info.displayedSize,
                              outcome: .transformsSet(from: originalInfo.orientation, to: said))
            }
        }
        let orientation = info.orientation
        if info.format == .heic, orientation == .up || !turnsHEICPixels {
            return try heicWithAgreeingEXIF(bytes, info)
        }
        guard orientation != .up else {
            return Result(format: info.format, originalOrientation: orientation, data: nil, size: info.displayedSize, outcome: .alreadyUpright)
        }
        let turned: (bytes: [UInt8], size: PixelSize, warnings: [String])
        switch info.format {
        case .jpeg:
            turned = isLossless ? try losslessJPEG(bytes, orientation) : try lossyJPEG(bytes, orientation, truncated: info.isTruncated)
        case .heic: turned = try heic(bytes, orientation)
        case .tiff: turned = try tiff(bytes)
        case .dng: throw ImageFileError(.rawNotReoriented)
        }
        return Result(format: info.format, originalOrientation: orientation, data: Data(turned.bytes), size: turned.size,
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
        let bytes = try Self.contents(of: path)
        let info = try inspected(bytes)
        if !overwrite, FileManager.default.fileExists(atPath: target) { throw ImageFileError(.fileExists(path: target)) }
        let result = try upright(bytes, info)
        guard let changed = result.data else {
            if URL(fileURLWithPath: target).standardizedFileURL != URL(fileURLWithPath: path).standardizedFileURL {
                try AtomicFileWriter.write(Data(bytes), to: target, overwrite: overwrite)
            }
            return .alreadyUpright
        }
        if overwrite, URL(fileURLWithPath: target).standardizedFileURL == URL(fileURLWithPath: path).standardizedFileURL {
            try AtomicFileWriter.replace(path, with: changed, keepingModificationTime: keepsModificationTime)
        } else {
            try AtomicFileWriter.write(changed, to: target, overwrite: overwrite)
        }
        return result.outcome
    }

    /// Turns the file at the `file:` URL `url` upright into `target`, as
    /// ``orientFile(at:writingTo:overwrite:)-(String,String,_)`` does.
    @discardableResult
    public func orientFile(at url: URL, writingTo target: URL, overwrite: Bool) throws(ImageFileError) -> Outcome {
        try orientFile(at: url.filePath(), writingTo: target.filePath(), overwrite: overwrite)
    }

    // MARK: JPEG

    /// Decoded, turned as a whole image (odd sizes kept), re-encoded at ``quality`` — a CMYK or
    /// YCCK one in its own colour model (``JPEGCMYKTurn``), its Adobe APP14 kept; EXIF rewritten,
    /// XMP (orientation 1), JFIF, ICC profile, comments and other descriptive segments carried over.
    private func lossyJPEG(_ data: [UInt8], _ orientation: Orientation,
                           truncated: Bool) throws(ImageFileError) -> (bytes: [UInt8], size: PixelSize, warnings: [String]) {
        let isCMYK = try ImageFileError.damaged { () throws(CodecError) in try JPEGCMYKTurn.isCMYK(data) }
        let (encoded, size): ([UInt8], PixelSize)
        if isCMYK {
            (encoded, size) = try ImageFileError.damaged { () throws(CodecError) in
                try JPEGCMYKTurn.turned(data, by: orientation, quality: quality, acceptingTruncation: truncated)
            }
        } else if let sampling = try Self.ownSampling(of: data) {
            // Not 4:2:0 (4:4:4, 4:2:2, grey…): re-encoded from RGB in the file's own sampling, not
            // through 4:2:0 planes that would halve a 4:4:4 file's colour.
            let decoded = try ImageFileError.damaged { () throws(CodecError) in
                try JPEGDecoder().decodeRGB(data, acceptingTruncation: truncated)
            }
            let upright = RGBImage(size: decoded.size, pixels: decoded.rgb).transformed(by: orientation)
            encoded = try ImageFileError.damaged { () throws(CodecError) in
                try JPEGEncoder().encode(upright, quality: quality, subsampling: sampling)
            }
            size = upright.size
        } else {
            let planar = try Self.uprightPlanes(data, orientation, truncated: truncated)
            encoded = try ImageFileError.damaged { () throws(CodecError) in try JPEGEncoder().encode(planar, quality: quality) }
            size = planar.size
        }
        let withEXIF = try withEditedEXIF(of: data, into: encoded, size: size, orientation: orientation)
        let carried = try ImageFileError.damaged { () throws(CodecError) in
            try JPEGFile.withUprightXMP(JPEGFile.carryingDescriptiveSegments(from: data, into: withEXIF, turnedBy: orientation,
                                                                             keepingColourModel: isCMYK))
        }
        let described = try withXMPPictures(carried, turnedBy: orientation)
        let (bytes, dropped) = try withCompanions(described.bytes, of: data, turnedBy: orientation)
        let warnings = truncated ? ["the file is cut short at byte \(data.count): the part of the picture its data does not reach comes out grey"] : []
        return (bytes, size, warnings + described.warnings + dropped)
    }

    /// `jpeg` with the pictures its XMP carries (``XMPCompanionPictures``: an Android portrait's
    /// depth map and original) turned by `orientation`, a JPEG one as an MPF companion is
    /// (``turnedCompanion(_:_:)``); the warnings name those dropped.
    private func withXMPPictures(_ jpeg: [UInt8], turnedBy orientation: Orientation) throws(ImageFileError) -> (bytes: [UInt8], warnings: [String]) {
        try XMPCompanionPictures.turning(jpeg, by: orientation) { (picture) throws(ImageFileError) in
            try turnedCompanion(picture, orientation)
        }
    }

    /// `primary` (the turned main image, carrying `original`'s MPF index) followed by what came
    /// after `original`'s EOI, with the images the index lists there — a camera's preview, an
    /// Ultra HDR gain map — turned the same way (``turnedCompanion(_:_:)``) and the index saying
    /// where they now are. A companion that cannot be turned is never kept unturned: the
    /// companions and the index are dropped, with a warning naming it.
    private func withCompanions(_ primary: [UInt8], of original: [UInt8],
                                turnedBy orientation: Orientation) throws(ImageFileError) -> (bytes: [UInt8], warnings: [String]) {
        let companions = try ImageFileError.damaged { () throws(CodecError) in try MPFIndex.companions(in: original) }
        var turned: [Int: [UInt8]] = [:]
        for companion in companions {
            do throws(ImageFileError) {
                turned[companion.entry] = try turnedCompanion(Array(original[companion.range]), orientation)
            } catch {
                let warning = "image \(companion.entry + 1) of the Multi-Picture index (\(companion.range.count) bytes after the picture) "
                    + "cannot be turned (\(error)): it is dropped, with the index and its other images"
                let bytes = try ImageFileError.damaged { () throws(CodecError) in
                    try MPFIndex.droppingCompanions(primary, of: original, companions: companions)
                }
                return (bytes, [warning])
            }
        }
        let bytes = try ImageFileError.damaged { () throws(CodecError) in
            // An Ultra HDR gain map (or another container item) re-encoded has a new length,
            // which the primary image's XMP must give; without companions there is none to give
            // (and no packet to parse).
            let lengths = companions.map { turned[$0.entry]?.count ?? $0.range.count }
            let described = lengths.isEmpty ? primary
                : try JPEGFile.editingXMP(primary) { XMPContainerDirectory.settingLengths(lengths, in: $0) }
            return try MPFIndex.assembling(described, of: original, companions: companions, replacedBy: turned)
        }
        return (bytes, [])
    }

    /// A companion JPEG of the MPF index turned by `orientation`: losslessly where exact, else
    /// decoded and re-encoded at ``quality``; its own EXIF and XMP rewritten as the main
    /// image's are.
    private func turnedCompanion(_ jpeg: [UInt8], _ orientation: Orientation) throws(ImageFileError) -> [UInt8] {
        let refusal = try ImageFileError.damaged { () throws(CodecError) in
            try JPEGLosslessTransform.refusal(of: jpeg, applying: orientation)
        }
        if refusal == nil {
            let transformed = try ImageFileError.damaged { () throws(CodecError) in
                try JPEGLosslessTransform.transform(jpeg, applying: orientation)
            }
            let size = try ImageFileError.damaged { () throws(CodecError) in try JPEGDecoder().header(transformed).size }
            let withEXIF = try withEditedEXIF(of: jpeg, into: transformed, size: size, orientation: orientation)
            return try ImageFileError.damaged { () throws(CodecError) in try JPEGFile.withUprightXMP(withEXIF) }
        }
        let planar = try Self.uprightPlanes(jpeg, orientation, truncated: false)
        let encoded = try ImageFileError.damaged { () throws(CodecError) in try JPEGEncoder().encode(planar, quality: quality) }
        let withEXIF = try withEditedEXIF(of: jpeg, into: encoded, size: planar.size, orientation: orientation)
        return try ImageFileError.damaged { () throws(CodecError) in
            try JPEGFile.withUprightXMP(JPEGFile.carryingDescriptiveSegments(from: jpeg, into: withEXIF, turnedBy: orientation,
                                                                             keepingColourModel: false))
        }
    }

    /// The picture upright as 4:2:0 planes, holding about one decoded picture: an even-sized
    /// 4:2:0 JPEG is decoded into its planes and they are turned (its 2×2 chroma blocks land on
    /// 2×2 blocks, so nothing is resampled), never an RGB picture beside them. Odd sizes are
    /// turned as RGB, which keeps the odd last row or column that turned planes would lose; a
    /// file cut short needs the RGB decoder, which fills what its data does not reach.
    /// TurboJPEG's value for the chroma sampling of `jpeg` when it is one TurboJPEG encodes other
    /// than 4:2:0; nil for 4:2:0 (the planes' own) and for an unusual one.
    private static func ownSampling(of jpeg: [UInt8]) throws(ImageFileError) -> Int32? {
        let header = try ImageFileError.damaged { () throws(CodecError) in try JPEGDecoder().header(jpeg) }
        return header.subsampling == "4:2:0" ? nil : JPEGDecoder.subsampling(named: header.subsampling)
    }

    private static func uprightPlanes(_ data: [UInt8], _ orientation: Orientation, truncated: Bool) throws(ImageFileError) -> PlanarImage {
        let header = try ImageFileError.damaged { () throws(CodecError) in try JPEGDecoder().header(data) }
        if !truncated, header.subsampling == "4:2:0", header.size.width % 2 == 0, header.size.height % 2 == 0 {
            let planes = try ImageFileError.damaged { () throws(CodecError) in try JPEGDecoder().decodePlanar(data) }
            return try ImageFileError.imaging { () throws(ImagingError) in try planes.transformed(by: orientation) }
        }
        let decoded = try ImageFileError.damaged { () throws(CodecError) in
            try JPEGDecoder().decodeRGB(data, acceptingTruncation: truncated)
        }
        return try ImageFileError.imaging { () throws(ImagingError) in
            try RGBImage(size: decoded.size, pixels: decoded.rgb).transformed(by: orientation).planarImage()
        }
    }

    /// tjTransform where exact (else ``ImageFileError/Code/losslessNotExact(orientation:size:mcu:)``);
    /// EXIF and XMP rewritten.
    private func losslessJPEG(_ data: [UInt8], _ orientation: Orientation) throws(ImageFileError) -> (bytes: [UInt8], size: PixelSize, warnings: [String]) {
        let refusal = try ImageFileError.damaged { () throws(CodecError) in
            try JPEGLosslessTransform.refusal(of: data, applying: orientation)
        }
        if let refusal {
            throw ImageFileError(.losslessNotExact(orientation: refusal.orientation, size: refusal.size, mcu: refusal.mcu))
        }
        let transformed = try ImageFileError.damaged { () throws(CodecError) in
            try JPEGLosslessTransform.transform(data, applying: orientation)
        }
        let size = try ImageFileError.damaged { () throws(CodecError) in try JPEGDecoder().header(transformed).size }
        // tjTransform copies every other segment itself.
        let withEXIF = try withEditedEXIF(of: data, into: transformed, size: size, orientation: orientation)
        let primary = try ImageFileError.damaged { () throws(CodecError) in try JPEGFile.withUprightXMP(withEXIF) }
        let described = try withXMPPictures(primary, turnedBy: orientation)
        let (bytes, warnings) = try withCompanions(described.bytes, of: data, turnedBy: orientation)
        return (bytes, size, described.warnings + warnings)
    }

    /// `jpeg` with the EXIF block of `original` edited for upright pixels of `size`
    /// (``editedEXIF(_:size:orientation:largest:)``), at the offset the original had it.
    private func withEditedEXIF(of original: [UInt8], into jpeg: [UInt8], size: PixelSize,
                                orientation: Orientation) throws(ImageFileError) -> [UInt8] {
        guard let block = try ImageFileError.damaged({ () throws(CodecError) in try JPEGFile.exifBlock(in: original) }) else {
            return jpeg
        }
        let edited = try editedEXIF(block, size: size, orientation: orientation, largest: JPEGFile.maximumEXIFBlock)
        return try ImageFileError.damaged { () throws(CodecError) in
            // Where the original began with its EXIF, so does the result: same file offset.
            let target = try JPEGFile.startsWithEXIF(original) ? try JPEGFile.removingJFIF(jpeg) : jpeg
            return try JPEGFile.insertingEXIF(edited, into: target)
        }
    }

    /// `block` edited in place (``EXIFBlockEditor``) for upright pixels of `size`: IFD0/IFD1
    /// Orientation 1, PixelX/YDimension, the thumbnail turned by `orientation`; every other byte
    /// stays where it was, so maker notes keep their offsets. A thumbnail that cannot be decoded
    /// (cameras write placeholders such as "<Dummy thumbnail image data>") is left as it is, with
    /// its IFD1 Orientation, which still describes it. The block stays within `largest` bytes.
    private func editedEXIF(_ block: [UInt8], size: PixelSize, orientation: Orientation,
                            largest: Int) throws(ImageFileError) -> [UInt8] {
        var editor = try ImageFileError.damaged { () throws(CodecError) in try EXIFBlockEditor(block) }
        var thumbnailTurned = editor.thumbnail == nil
        if let thumbnail = editor.thumbnail, let decoded = try? JPEGDecoder().decodeRGB(thumbnail) {
            let turned = try ImageFileError.imaging { () throws(ImagingError) in
                try RGBImage(size: decoded.size, pixels: decoded.rgb).transformed(by: orientation).planarImage()
            }
            // A turned thumbnail that does not fit its slot is appended; lower qualities keep
            // the block within `largest` (one APP1 segment in a JPEG).
            for quality in [Self.thumbnailQuality, 75, 50, 25] {
                var attempt = editor
                let encoded = try ImageFileError.damaged { () throws(CodecError) in try JPEGEncoder().encode(turned, quality: quality) }
                guard attempt.replaceThumbnail(with: encoded) else { break }
                if attempt.block.count <= largest {
                    editor = attempt
                    thumbnailTurned = true
                    break
                }
            }
        }
        editor.markUpright(pixelSize: size, uprightThumbnail: thumbnailTurned)
        return editor.block
    }

    // MARK: HEIC

    /// A HEIC left as it is coded: HEIF readers apply `irot`/`imir`, so it is shown upright. Its
    /// EXIF Orientation is set to what those properties do, in place, every other byte kept
    /// (coded image, colour, XMP, thumbnails, auxiliary images). An EXIF item that is not found
    /// once, byte for byte, in the file (compressed, or split over extents) is left as it is:
    /// HEIF readers do not apply it.
    private func heicWithAgreeingEXIF(_ data: [UInt8], _ info: ImageFileInfo) throws(ImageFileError) -> Result {
        let shown = info.orientation
        let unchanged = Result(format: .heic, originalOrientation: shown, data: nil, size: info.displayedSize, outcome: .alreadyUpright)
        guard let said = info.exifOrientation, said != shown,
              let block = try ImageFileError.damaged({ () throws(CodecError) in try HEICFileInfo(data: data).exifBlock }),
              let range = Self.onlyRange(of: block, in: data) else { return unchanged }
        var editor = try ImageFileError.damaged { () throws(CodecError) in try EXIFBlockEditor(block) }
        guard editor.setOrientation(shown), editor.block.count == block.count else { return unchanged }
        var output = data
        output.replaceSubrange(range, with: editor.block)
        return Result(format: .heic, originalOrientation: shown, data: Data(output), size: info.displayedSize,
                      outcome: .exifCorrected(from: said, to: shown))
    }

    /// Where `needle` occurs in `haystack`, when it occurs exactly once.
    private static func onlyRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard let first = haystack.firstRange(of: needle) else { return nil }
        return haystack[first.upperBound...].firstRange(of: needle) == nil ? first : nil
    }

    /// Decoded, turned, re-encoded with no transformation at ``heicQuality``: the thumbnail item
    /// turned the same way, the EXIF edited as for JPEG, the colour description and metadata
    /// items carried (XMP saying Orientation 1), the auxiliary images (alpha, depth, gain maps)
    /// turned with the picture. Those it drops are named in warnings.
    ///
    /// An 8-bit 4:2:0 picture in JFIF's coding (what cameras and phones write) is decoded to its
    /// own Y'CbCr planes — a grid tile by tile — and turned as planes: no round trip through RGB,
    /// and one buffer of the picture's planes, half its RGB. Others (4:2:2, 4:4:4, monochrome,
    /// deeper samples, other nclx matrices or limited range, a clean aperture) are decoded to RGB
    /// as a viewer shows them and converted to JFIF's planes.
    private func heic(_ data: [UInt8], _ orientation: Orientation) throws(ImageFileError) -> (bytes: [UInt8], size: PixelSize, warnings: [String]) {
        let image: PlanarImage
        if let turned = try ImageFileError.damaged({ () throws(CodecError) in try HEICDecoder.decodeTurnedPlanes(data, by: orientation) }) {
            image = turned
        } else {
            let decoded = try ImageFileError.damaged { () throws(CodecError) in try HEICDecoder.decodeRGB(data, applyingTransformations: true) }
            image = try ImageFileError.imaging { () throws(ImagingError) in try RGBImage(size: decoded.size, pixels: decoded.rgb).planarImage() }
        }
        let decodedThumbnail = try ImageFileError.damaged { () throws(CodecError) in
            try HEICDecoder.decodeThumbnailRGB(data, applyingTransformations: true)
        }
        let thumbnail = try ImageFileError.imaging { () throws(ImagingError) in
            try decodedThumbnail.map { (decoded) throws(ImagingError) in try RGBImage(size: decoded.size, pixels: decoded.rgb).planarImage() }
        }
        var carried = try ImageFileError.damaged { () throws(CodecError) in try HEIFCarriedProperties(primaryImageOf: data) }
        for index in carried.metadata.indices where carried.metadata[index].isXMP {
            if let upright = XMPOrientation.upright(bytes: carried.metadata[index].bytes) {
                carried.metadata[index].bytes = upright
            }
        }
        let size = image.size
        let exifBlock = try ImageFileError.damaged { () throws(CodecError) in try HEICFileInfo(data: data).exifBlock }
        let exif = try exifBlock.map { (block) throws(ImageFileError) in try editedEXIF(block, size: size, orientation: orientation, largest: .max) }
        let encoder = try ImageFileError.damaged { () throws(CodecError) in try HEICEncoder() }
        let quality: Int
        if let heicQuality {
            quality = heicQuality
        } else {
            let sample = try ImageFileError.imaging { () throws(ImagingError) in try Self.sample(of: image) }
            quality = try ImageFileError.damaged { () throws(CodecError) in
                try encoder.quality(matching: Double(data.count) / Double(size.area), sample: sample)
            }
        }
        let (alpha, warnings) = try turnedAlpha(data, orientation, carried.auxiliaryImages, for: size,
                                                single: encoder.tiling?.layout(for: size) == nil)
        let encoded = try ImageFileError.damaged { [carried] () throws(CodecError) in
            try encoder.encode(image, quality: quality, orientation: .up, thumbnail: thumbnail, exif: exif, carrying: carried, alpha: alpha)
        }
        // Depth images, gain maps and other auxiliary images, which libheif 1.15 cannot write.
        let (bytes, dropped) = try ImageFileError.damaged { () throws(CodecError) in
            try HEIFAuxiliaryWriter.carrying(auxiliaryImagesOf: data, turnedBy: orientation, into: encoded, encoder: encoder, quality: quality)
        }
        return (bytes, size, warnings + dropped)
    }

    /// The alpha image of `data` turned by `orientation` for the re-encoded picture of `size`
    /// (coded as a `single` image, not a grid), and warnings naming the alpha images (among the
    /// auxiliary images' `kinds`) dropped: libheif 1.15, which writes the file, writes an alpha
    /// image (from the picture's alpha plane) but not for a grid. The other auxiliary images
    /// (depth, gain maps, mattes) are ``HEIFAuxiliaryWriter``'s.
    private func turnedAlpha(_ data: [UInt8], _ orientation: Orientation, _ kinds: [String], for size: PixelSize,
                             single: Bool) throws(ImageFileError) -> (alpha: [UInt8]?, warnings: [String]) {
        var alpha: [UInt8]?
        var warnings: [String] = []
        for kind in kinds where kind == "alpha" {
            guard alpha == nil else {
                warnings.append("its \(kind) image was dropped: libheif 1.15 cannot write a second alpha auxiliary image")
                continue
            }
            let turned = try ImageFileError.damaged { () throws(CodecError) in try HEICDecoder.decodeTurnedAlpha(data, by: orientation) }
            guard let turned else {
                warnings.append("its alpha image was dropped: its samples are deeper than 16 bits")
                continue
            }
            if !single {
                warnings.append("its alpha image was dropped: the picture is written as a grid, which libheif 1.15 gives no alpha")
            } else if turned.size != size {
                warnings.append("its alpha image was dropped: it is \(turned.size) for a \(size) picture")
            } else {
                alpha = turned.alpha
            }
        }
        return (alpha, warnings)
    }

    /// A sample of `image` to find a HEIC quality on: the centres of its nine thirds, side by
    /// side in about 1024x1024, so edges and corners count as much as the middle does.
    private static func sample(of image: PlanarImage) throws(ImagingError) -> PlanarImage {
        let tile = PixelSize(width: min(image.size.width / 3, 342) & ~1, height: min(image.size.height / 3, 342) & ~1)
        guard tile.width >= 2, tile.height >= 2 else { return image }
        let mosaic = try PlanarImage(size: PixelSize(width: tile.width * 3, height: tile.height * 3))
        for row in 0..<3 {
            for column in 0..<3 {
                // Even corners keep the chroma samples of each block with their luma.
                let x = ((2 * column + 1) * image.size.width / 6 - tile.width / 2) & ~1
                let y = ((2 * row + 1) * image.size.height / 6 - tile.height / 2) & ~1
                try image.copyBlock(PixelRect(x: x, y: y, size: tile), into: mosaic, x: column * tile.width, y: row * tile.height)
            }
        }
        return mosaic
    }

    // MARK: TIFF

    /// The picture turned in its own kind (bit depth, samples, photometric, compression), every
    /// other byte of the file kept (``TIFFPixelTurner``).
    private func tiff(_ data: [UInt8]) throws(ImageFileError) -> (bytes: [UInt8], size: PixelSize, warnings: [String]) {
        guard let turned = try ImageFileError.damaged({ () throws(CodecError) in try TIFFPixelTurner.upright(data) }) else {
            throw ImageFileError(.damaged(.corruptFile(format: "TIFF", reason: "the Orientation read twice differs")))
        }
        return (turned.bytes, turned.size, [])
    }
}
