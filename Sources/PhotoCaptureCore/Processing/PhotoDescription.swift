import Codecs
import FoundationEssentials
import Imaging

/// What the describe stage says about a photo: its EXIF fields, the Orientation tag among them,
/// and the app's XMP saying the same written orientation. The encode stage writes them: as an
/// EXIF block (with the thumbnail, for a JPEG, once that is scaled) and an XMP packet.
struct PhotoDescription {
    var exif: EXIFMetadata
    /// The XMP packet: the app's, its orientation set to the one written in EXIF, and the
    /// regions (faces) the app gave; nil when there is neither.
    let xmp: String?

    /// The EXIF block without a thumbnail: a HEIC's or a TIFF's.
    func exifBlock() throws(CodecError) -> [UInt8] {
        try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: nil)
    }

    /// The EXIF block of a JPEG; the thumbnail is re-encoded smaller until the block fits APP1.
    func jpegEXIFBlock(thumbnail: PlanarImage?, encoders: EncoderPool) throws(CodecError) -> [UInt8] {
        guard let thumbnail else { return try exifBlock() }
        return try encoders.withJPEGEncoder { (encoder) throws(CodecError) in
            var block: [UInt8] = []
            for quality in PhotoProcessor.thumbnailQualities {
                block = try EXIFBuilder.tiffBlock(for: exif, thumbnailJPEG: try encoder.encode(thumbnail, quality: quality))
                if block.count <= PhotoProcessor.maximumEXIFBlockSize { break }
            }
            return block
        }
    }

    /// The APP1 segments a JPEG carries: EXIF (`exifBlock`), then XMP if the app gave a packet.
    func jpegSegments(exifBlock: [UInt8]) throws(CodecError) -> [UInt8] {
        try JPEGFile.exifSegment(exifBlock) + (xmp.map { (packet) throws(CodecError) in try JPEGFile.xmpSegment(packet) } ?? [])
    }

    /// `jpeg` with the XMP packet inserted, if the app gave one.
    func insertingXMP(into jpeg: [UInt8]) throws(CodecError) -> Data {
        Data(try xmp.map { (packet) throws(CodecError) in try JPEGFile.insertingXMP(packet, into: jpeg) } ?? jpeg)
    }
}
