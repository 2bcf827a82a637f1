import Codecs
import FoundationEssentials
import Imaging

/// JPEG: turned losslessly (coefficients) or re-encoded, with its metadata, XMP pictures and
/// companion images carried over.
extension ImageOrienter {
    /// Decoded, turned as a whole image (odd sizes kept), re-encoded at ``quality`` — a CMYK or
    /// YCCK one in its own colour model (``JPEGCMYKTurn``), its Adobe APP14 kept; EXIF rewritten,
    /// XMP (orientation 1), JFIF, ICC profile, comments and other descriptive segments carried over.
    func lossyJPEG(_ data: [UInt8], _ orientation: Orientation,
                           truncated: Bool) throws(ImageFileError) -> (bytes: [UInt8], size: PixelSize, warnings: [Warning]) {
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
        let warnings: [Warning] = truncated ? [.truncated(atByte: data.count)] : []
        return (bytes, size, try warnings + Self.xmpKeptWarnings(carried) + described.warnings + dropped)
    }

    /// A warning when the XMP packet of `jpeg`, turned upright, still has its old
    /// `tiff:Orientation` because libxml2 cannot read it (`XMPOrientation.unreadable(_:)`).
    static func xmpKeptWarnings(_ jpeg: [UInt8]) throws(ImageFileError) -> [Warning] {
        let packet = try ImageFileError.damaged { () throws(CodecError) in try JPEGFile.xmpPacket(in: jpeg) }
        return packet.flatMap { XMPOrientation.unreadable($0) }.map { [.xmpOrientationKept(because: $0)] } ?? []
    }

    /// `jpeg` with the pictures its XMP carries (``XMPCompanionPictures``: an Android portrait's
    /// depth map and original) turned by `orientation`, a JPEG one as an MPF companion is
    /// (``turnedCompanion(_:_:)``); the warnings name those dropped.
    func withXMPPictures(_ jpeg: [UInt8], turnedBy orientation: Orientation) throws(ImageFileError) -> (bytes: [UInt8], warnings: [Warning]) {
        try XMPCompanionPictures.turning(jpeg, by: orientation) { (picture) throws(ImageFileError) in
            try turnedCompanion(picture, orientation)
        }
    }

    /// `primary` (the turned main image, carrying `original`'s MPF index) followed by what came
    /// after `original`'s EOI, with the images the index lists there — a camera's preview, an
    /// Ultra HDR gain map — turned the same way (``turnedCompanion(_:_:)``) and the index saying
    /// where they now are. A companion that cannot be turned is never kept unturned: the
    /// companions and the index are dropped, with a warning naming it.
    func withCompanions(_ primary: [UInt8], of original: [UInt8],
                                turnedBy orientation: Orientation) throws(ImageFileError) -> (bytes: [UInt8], warnings: [Warning]) {
        let companions = try ImageFileError.damaged { () throws(CodecError) in try MPFIndex.companions(in: original) }
        var turned: [Int: [UInt8]] = [:]
        for companion in companions {
            do throws(ImageFileError) {
                turned[companion.entry] = try turnedCompanion(Array(original[companion.range]), orientation)
            } catch {
                let warning = Warning.dropped(.multiPictureImage(number: companion.entry + 1, bytes: companion.range.count),
                                              because: .notTurnable(error))
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
    func turnedCompanion(_ jpeg: [UInt8], _ orientation: Orientation) throws(ImageFileError) -> [UInt8] {
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
    static func ownSampling(of jpeg: [UInt8]) throws(ImageFileError) -> Int32? {
        let header = try ImageFileError.damaged { () throws(CodecError) in try JPEGDecoder().header(jpeg) }
        return header.subsampling == "4:2:0" ? nil : JPEGDecoder.subsampling(named: header.subsampling)
    }

    static func uprightPlanes(_ data: [UInt8], _ orientation: Orientation, truncated: Bool) throws(ImageFileError) -> PlanarImage {
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

    /// tjTransform where exact (else ``ImageFileError/Code/losslessNotExact(_:)``);
    /// EXIF and XMP rewritten.
    func losslessJPEG(_ data: [UInt8], _ orientation: Orientation) throws(ImageFileError) -> (bytes: [UInt8], size: PixelSize, warnings: [Warning]) {
        let refusal = try ImageFileError.damaged { () throws(CodecError) in
            try JPEGLosslessTransform.refusal(of: data, applying: orientation)
        }
        if let refusal {
            throw ImageFileError(.losslessNotExact(refusal))
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
        return (bytes, size, try Self.xmpKeptWarnings(primary) + described.warnings + warnings)
    }

    /// `jpeg` with the EXIF block of `original` edited for upright pixels of `size`
    /// (``editedEXIF(_:size:orientation:largest:)``), at the offset the original had it.
    func withEditedEXIF(of original: [UInt8], into jpeg: [UInt8], size: PixelSize,
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
    func editedEXIF(_ block: [UInt8], size: PixelSize, orientation: Orientation,
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
}
