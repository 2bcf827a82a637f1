import Codecs
import FoundationEssentials
import Imaging

/// HEIC: its EXIF made to agree with irot/imir in place, or its pixels re-encoded upright
/// with the alpha, depth and gain map images turned along.
extension ImageOrienter {
    /// A HEIC left as it is coded: HEIF readers apply `irot`/`imir`, so it is shown upright. Its
    /// EXIF Orientation is set to what those properties do, in place, every other byte kept
    /// (coded image, colour, XMP, thumbnails, auxiliary images). An EXIF item that is not found
    /// once, byte for byte, in the file (compressed, or split over extents) is left as it is:
    /// HEIF readers do not apply it.
    func heicWithAgreeingEXIF(_ data: [UInt8], _ info: ImageFileInfo) throws(ImageFileError) -> Result {
        let shown = info.orientation
        let unchanged = Result(format: .heic, originalOrientation: shown, bytes: nil, size: info.displayedSize, outcome: .alreadyUpright)
        guard let said = info.exifOrientation, said != shown,
              let block = try ImageFileError.damaged({ () throws(CodecError) in try HEICFileInfo(data: data).exifBlock }),
              let range = Self.onlyRange(of: block, in: data) else { return unchanged }
        var editor = try ImageFileError.damaged { () throws(CodecError) in try EXIFBlockEditor(block) }
        guard editor.setOrientation(shown), editor.block.count == block.count else { return unchanged }
        var output = data
        output.replaceSubrange(range, with: editor.block)
        return Result(format: .heic, originalOrientation: shown, bytes: output, size: info.displayedSize,
                      outcome: .exifCorrected(from: said, to: shown))
    }

    /// Where `needle` occurs in `haystack`, when it occurs exactly once.
    static func onlyRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
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
    func heic(_ data: [UInt8], _ orientation: Orientation) throws(ImageFileError) -> (bytes: [UInt8], size: PixelSize, warnings: [Warning]) {
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
        var xmpKept: [Warning] = []
        for index in carried.metadata.indices where carried.metadata[index].isXMP {
            if let upright = XMPOrientation.upright(bytes: carried.metadata[index].bytes) {
                carried.metadata[index].bytes = upright
            } else if let error = XMPOrientation.unreadable(carried.metadata[index].bytes) {
                xmpKept.append(.xmpOrientationKept(because: error))
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
        return (bytes, size, xmpKept + warnings + dropped.map { .dropped(.auxiliaryImage(kind: $0.kind), because: Warning.Reason($0.reason)) })
    }

    /// The alpha image of `data` turned by `orientation` for the re-encoded picture of `size`
    /// (coded as a `single` image, not a grid), and warnings naming the alpha images (among the
    /// auxiliary images' `kinds`) dropped: libheif 1.15, which writes the file, writes an alpha
    /// image (from the picture's alpha plane) but not for a grid. The other auxiliary images
    /// (depth, gain maps, mattes) are ``HEIFAuxiliaryWriter``'s.
    func turnedAlpha(_ data: [UInt8], _ orientation: Orientation, _ kinds: [String], for size: PixelSize,
                             single: Bool) throws(ImageFileError) -> (alpha: [UInt8]?, warnings: [Warning]) {
        var alpha: [UInt8]?
        var warnings: [Warning] = []
        for kind in kinds where kind == "alpha" {
            guard alpha == nil else {
                warnings.append(.dropped(.auxiliaryImage(kind: kind), because: .secondAlphaImage))
                continue
            }
            let turned = try ImageFileError.damaged { () throws(CodecError) in try HEICDecoder.decodeTurnedAlpha(data, by: orientation) }
            guard let turned else {
                warnings.append(.dropped(.auxiliaryImage(kind: kind), because: .samplesDeeperThan(bits: 16)))
                continue
            }
            if !single {
                warnings.append(.dropped(.auxiliaryImage(kind: kind), because: .pictureIsAGrid))
            } else if turned.size != size {
                warnings.append(.dropped(.auxiliaryImage(kind: kind), because: .sizeDiffers(image: turned.size, picture: size)))
            } else {
                alpha = turned.alpha
            }
        }
        return (alpha, warnings)
    }

    /// A sample of `image` to find a HEIC quality on: the centres of its nine thirds, side by
    /// side in about 1024x1024, so edges and corners count as much as the middle does.
    static func sample(of image: PlanarImage) throws(ImagingError) -> PlanarImage {
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
}
