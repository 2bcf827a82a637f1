import CExif
import Imaging

/// Edits a few values of a TIFF-structured EXIF block in place, keeping every other byte where
/// it was: maker notes hold absolute offsets into the block (Apple, Canon, Nikon, Olympus), so
/// any rebuild that moves them breaks them. This is jhead's way: values are overwritten in
/// their entries, and a thumbnail that no longer fits its slot is appended at the end of the
/// block, where nothing points.
///
/// Chosen over Exiv2 behind a C++ seam: the edit needs only the IFD0/IFD1/Exif IFD entries
/// (about 150 lines here against a new C++ dependency and seam), and it cannot lose what it
/// does not touch, whereas a rewriter must know every maker note to keep it.
package struct EXIFBlockEditor {
    /// The block being edited.
    package private(set) var block: [UInt8]
    private let littleEndian: Bool

    /// One directory entry: where it is and what it says.
    private typealias Entry = TIFFDirectory.Entry

    /// Starts editing `block`; throws when it has no TIFF header or IFD0 lies outside it.
    package init(_ block: [UInt8]) throws(CodecError) {
        guard let header = TIFFHeader(block) else {
            throw .corruptFile(format: "EXIF", reason: "no TIFF header (\"II*\\0\" or \"MM\\0*\") at the start of the EXIF block")
        }
        self.block = block
        littleEndian = header.isLittleEndian
        guard entries(at: header.firstIFDOffset) != nil else {
            throw .corruptFile(format: "EXIF", reason: "IFD0 at offset \(header.firstIFDOffset) lies outside the \(block.count)-byte EXIF block")
        }
    }

    private mutating func set(_ value: Int, at offset: Int, count: Int) {
        block.replaceSubrange(offset..<(offset + count), with: TIFFHeader.bytes(of: value, count: count, littleEndian: littleEndian))
    }

    private var ifd0Offset: Int { TIFFHeader(block)?.firstIFDOffset ?? 0 }

    /// The entries of the directory at `offset`, nil when it lies outside the block.
    private func entries(at offset: Int) -> [Entry]? {
        guard offset >= 8 else { return nil }
        return try? TIFFDirectory(block, at: offset, format: "EXIF").entries
    }

    /// Offset of IFD1 (the link after IFD0), nil when there is none.
    private var ifd1Offset: Int? {
        guard let ifd0 = try? TIFFDirectory(block, at: ifd0Offset, format: "EXIF"),
              let next = try? TIFFHeader.integer(block, at: ifd0.end - 4, count: 4, littleEndian: littleEndian) else { return nil }
        return entries(at: next) == nil ? nil : next
    }

    private var exifIFDOffset: Int? {
        guard let pointer = entry(EXIF_TAG_EXIF_IFD_POINTER, in: ifd0Offset) else { return nil }
        guard let offset = try? pointer.inlineInteger(in: block) else { return nil }
        return entries(at: offset) == nil ? nil : offset
    }

    /// The entry for `tag` in the directory at `directory`; nil when there is none (or no directory).
    private func entry(_ tag: ExifTag, in directory: Int?) -> Entry? {
        guard let directory else { return nil }
        return entries(at: directory)?.first { $0.tag == Int(tag.rawValue) }
    }

    /// Sets a single SHORT or LONG value in place; false when the entry is absent, of another
    /// type, or the value does not fit a SHORT.
    @discardableResult
    private mutating func setInteger(_ tag: ExifTag, in directory: Int?, to value: Int) -> Bool {
        guard let entry = entry(tag, in: directory), entry.count == 1 else { return false }
        switch entry.type {
        case 3 where value <= 0xFFFF: set(value, at: entry.position + 8, count: 2)
        case 4: set(value, at: entry.position + 8, count: 4)
        default: return false
        }
        return true
    }

    private func integerValue(_ tag: ExifTag, in directory: Int?) -> Int? {
        guard let entry = entry(tag, in: directory), entry.count == 1 else { return nil }
        return [3, 4].contains(entry.type) ? try? entry.inlineInteger(in: block) : nil
    }

    /// IFD0 `Orientation`, nil when absent.
    package var orientation: Int? { integerValue(EXIF_TAG_ORIENTATION, in: ifd0Offset) }
    /// IFD1 `Orientation`, nil when absent.
    package var thumbnailOrientation: Int? { integerValue(EXIF_TAG_ORIENTATION, in: ifd1Offset) }

    /// The IFD1 thumbnail bytes as stored (a JPEG, or whatever placeholder the camera wrote).
    package var thumbnail: [UInt8]? {
        guard let ifd1 = ifd1Offset, let offset = integerValue(EXIF_TAG_JPEG_INTERCHANGE_FORMAT, in: ifd1),
              let length = integerValue(EXIF_TAG_JPEG_INTERCHANGE_FORMAT_LENGTH, in: ifd1), length > 0, offset >= 8,
              offset + length <= block.count else { return nil }
        return Array(block[offset..<(offset + length)])
    }

    /// Sets IFD0 `Orientation` to 1 and `PixelXDimension`/`PixelYDimension` to `pixelSize`
    /// where those entries exist; with `uprightThumbnail` also IFD1 `Orientation`.
    package mutating func markUpright(pixelSize: PixelSize?, uprightThumbnail: Bool) {
        setOrientation(.up)
        if uprightThumbnail { setInteger(EXIF_TAG_ORIENTATION, in: ifd1Offset, to: 1) }
        if let pixelSize, let exif = exifIFDOffset {
            // A SHORT that cannot hold the new width is widened in place (same 4-byte field).
            for (tag, value) in [(EXIF_TAG_PIXEL_X_DIMENSION, pixelSize.width), (EXIF_TAG_PIXEL_Y_DIMENSION, pixelSize.height)] {
                if !setInteger(tag, in: exif, to: value),
                   let entry = entries(at: exif)?.first(where: { $0.tag == Int(tag.rawValue) && $0.type == 3 && $0.count == 1 }) {
                    set(4, at: entry.position + 2, count: 2)
                    set(value, at: entry.position + 8, count: 4)
                }
            }
        }
    }

    /// Marks `block` upright as ``markUpright(pixelSize:uprightThumbnail:)`` does, editing the
    /// caller's array itself (an editor beside it would copy it on the first edit: a whole TIFF
    /// file, for a TIFF). A block that is not an EXIF structure is left as it is.
    package static func markUpright(_ block: inout [UInt8], pixelSize: PixelSize?, uprightThumbnail: Bool) {
        guard var editor = try? EXIFBlockEditor(block) else { return }
        block = []
        editor.markUpright(pixelSize: pixelSize, uprightThumbnail: uprightThumbnail)
        block = editor.block
    }

    /// Sets IFD0 Orientation to `orientation` in place (IFD1, which describes the thumbnail,
    /// is left); false when IFD0 has no single Orientation value to set.
    @discardableResult
    package mutating func setOrientation(_ orientation: Orientation) -> Bool {
        setInteger(EXIF_TAG_ORIENTATION, in: ifd0Offset, to: orientation.exifValue)
    }

    /// Replaces the IFD1 thumbnail with `jpeg`: in its old slot when it fits (the rest of the
    /// slot zeroed), else appended at the end of the block. Nothing else moves. Returns false
    /// when the block has no IFD1 thumbnail entries to point at it.
    @discardableResult
    package mutating func replaceThumbnail(with jpeg: [UInt8]) -> Bool {
        guard let ifd1 = ifd1Offset, let offset = integerValue(EXIF_TAG_JPEG_INTERCHANGE_FORMAT, in: ifd1),
              let length = integerValue(EXIF_TAG_JPEG_INTERCHANGE_FORMAT_LENGTH, in: ifd1) else { return false }
        if jpeg.count <= length, offset >= 8, offset + length <= block.count {
            block.replaceSubrange(offset..<(offset + length), with: jpeg + [UInt8](repeating: 0, count: length - jpeg.count))
            setInteger(EXIF_TAG_JPEG_INTERCHANGE_FORMAT_LENGTH, in: ifd1, to: jpeg.count)
        } else {
            if block.count % 2 == 1 { block.append(0) }  // TIFF values start on word boundaries
            let newOffset = block.count
            block += jpeg
            guard setInteger(EXIF_TAG_JPEG_INTERCHANGE_FORMAT, in: ifd1, to: newOffset),
                  setInteger(EXIF_TAG_JPEG_INTERCHANGE_FORMAT_LENGTH, in: ifd1, to: jpeg.count) else { return false }
        }
        return true
    }
}
