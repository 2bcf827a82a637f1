import CExif
import Imaging

extension EXIFBuilder {
    /// Rewrites an existing TIFF-structured EXIF block for pixels that were turned upright:
    /// every tag is kept except that IFD0 and IFD1 `Orientation` become 1 (where present),
    /// `PixelXDimension`/`PixelYDimension` become `pixelSize` (where present; so they swap when
    /// the turn swapped the dimensions), and the IFD1 thumbnail is replaced by `thumbnailJPEG`
    /// (a complete JPEG file, already turned like the main image) or dropped when it is nil.
    ///
    /// libexif rewrites the structure (offsets change); tags it cannot parse are lost, as they
    /// would be with any libexif-based editor.
    package static func normalizing(_ block: [UInt8], pixelSize: PixelSize?, thumbnailJPEG: [UInt8]?) throws(CodecError) -> [UInt8] {
        guard TIFFHeader(block) != nil else {
            throw .corruptFile(format: "EXIF", reason: "no TIFF header (\"II*\\0\" or \"MM\\0*\") at the start of the EXIF block")
        }
        let exif = try EXIFData(editing: block)
        guard exif.hasEntries(in: EXIF_IFD_0) || exif.hasEntries(in: EXIF_IFD_EXIF) else {
            throw .corruptFile(format: "EXIF", reason: "no readable IFD entries")
        }
        // The Orientation of IFD0 must exist and be 1; a SHORT of another width is replaced.
        if exif.integer(EXIF_TAG_ORIENTATION, in: EXIF_IFD_0) != nil {
            if !exif.setInteger(EXIF_TAG_ORIENTATION, in: EXIF_IFD_0, 1) {
                throw .exif(function: "exif_set_short", message: "IFD0 Orientation has an unexpected type")
            }
        }
        if exif.integer(EXIF_TAG_ORIENTATION, in: EXIF_IFD_1) != nil {
            exif.setInteger(EXIF_TAG_ORIENTATION, in: EXIF_IFD_1, 1)
        }
        if let pixelSize {
            guard !pixelSize.isEmpty else { throw .invalidArgument("pixel size \(pixelSize) is empty") }
            if exif.integer(EXIF_TAG_PIXEL_X_DIMENSION, in: EXIF_IFD_EXIF) != nil {
                exif.setInteger(EXIF_TAG_PIXEL_X_DIMENSION, in: EXIF_IFD_EXIF, UInt32(clamping: pixelSize.width))
            }
            if exif.integer(EXIF_TAG_PIXEL_Y_DIMENSION, in: EXIF_IFD_EXIF) != nil {
                exif.setInteger(EXIF_TAG_PIXEL_Y_DIMENSION, in: EXIF_IFD_EXIF, UInt32(clamping: pixelSize.height))
            }
        }
        exif.removeThumbnail()
        if let thumbnailJPEG {
            guard thumbnailJPEG.starts(with: [0xFF, 0xD8]) else {
                throw .invalidArgument("the EXIF thumbnail is not a JPEG file")
            }
            if exif.integer(EXIF_TAG_COMPRESSION, in: EXIF_IFD_1) == nil {
                // In the block's own byte order (a loaded block may be big-endian).
                var bytes = [UInt8](repeating: 0, count: 2)
                bytes.withUnsafeMutableBufferPointer { exif_set_short($0.baseAddress, exif_data_get_byte_order(exif.data), 6) }
                try exif.add(EXIF_TAG_COMPRESSION, to: EXIF_IFD_1, format: EXIF_FORMAT_SHORT, components: 1, bytes: bytes)
            }
            try exif.setThumbnail(thumbnailJPEG)
        }
        return try exif.tiffBlock()
    }

    /// The IFD0 and IFD1 `Orientation` values and the thumbnail of a block, as
    /// ``normalizing(_:pixelSize:thumbnailJPEG:)`` sees them (for callers that turn the thumbnail).
    package static func orientationAndThumbnail(of block: [UInt8]) throws(CodecError)
        -> (orientation: Int?, thumbnailOrientation: Int?, thumbnailJPEG: [UInt8]?) {
        let exif = try EXIFData(editing: block)
        return (exif.integer(EXIF_TAG_ORIENTATION, in: EXIF_IFD_0), exif.integer(EXIF_TAG_ORIENTATION, in: EXIF_IFD_1),
                exif.thumbnail)
    }
}
