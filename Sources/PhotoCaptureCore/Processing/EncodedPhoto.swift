import FoundationEssentials

/// What the encode stage hands to delivery: the file, the EXIF block written into it (read back
/// for the photo's metadata), the reductions made beside the encode and how long each took.
struct EncodedPhoto {
    let fileData: Data?
    let exifBlock: [UInt8]
    let reductions: PhotoReductions
    /// Time spent scaling the reductions (and, for a JPEG, making its EXIF block).
    let scaling: Duration
    let encoding: Duration
}
