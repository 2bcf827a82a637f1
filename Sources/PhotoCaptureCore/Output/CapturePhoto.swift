import FoundationEssentials
import ImageFiles
import Imaging

/// One photo a request produced, modelled on `AVCapturePhoto`.
///
/// A photo that could not be made comes to
/// ``PhotoCaptureDelegate/photoOutput(_:didFinishProcessingPhoto:error:)`` with its error, as an
/// `AVCapturePhoto` does: it names its place in the request (``resolvedSettings``,
/// ``sequenceCount``, ``photoCount``, ``isRawPhoto``, ``bracketSettings``) and has no picture —
/// an empty ``pixelBuffer``, no preview, no metadata and no file.
public struct CapturePhoto: Sendable {
    /// What the pipeline did; `resolvedSettings.uniqueID` names the request.
    public let resolvedSettings: ResolvedPhotoSettings
    /// 1-based position within its request of the capture this photo comes from; a RAW photo
    /// and the processed photo developed from the same frame share it.
    public let sequenceCount: Int
    /// Photos the request delivers.
    public let photoCount: Int
    /// The camera's sequence number of the frame used.
    public let frameSequence: UInt64
    /// When the frame's exposure started (monotonic clock, nanoseconds).
    public let timestamp: UInt64
    /// How the frame was chosen: frames skipped before it and the delay from the request.
    public let frameDelivery: FrameDelivery
    /// When the frame's exposure started (wall clock).
    public let captureDate: Date
    /// The processed pixels (after the physical transform). For a RAW photo: the developed
    /// preview stored in its DNG, as stored (like the CFA data, never turned). A JPEG photo
    /// encoded from band buffers converts its frame when first read (see ``PixelBuffer``).
    /// Empty (size zero) for a photo delivered with an error.
    public let pixelBuffer: PixelBuffer
    /// The preview, when requested: the same transform, scaled with an area filter.
    public let previewPixelBuffer: PixelBuffer?
    /// The embedded thumbnail's stored size, when one was embedded.
    public let embeddedThumbnailDimensions: PixelSize?
    /// The EXIF metadata written, as tag name → readable value (read back from the file's own
    /// EXIF block with libexif): `metadata["Orientation"]` is libexif's text, "Right-top";
    /// ``exif`` has the fields an app reads as values.
    public let metadata: [String: String]
    /// The EXIF fields an app reads (orientation, dimensions, make and model, date, exposure),
    /// typed, from the same block as ``metadata``.
    public let exif: EXIFProperties
    /// Whether the sensor mounting was compensated in this photo's pixels.
    public let isSensorOrientationCompensationApplied: Bool
    /// The orientation written into this photo's metadata.
    public let writtenOrientation: Orientation
    /// Where the time went.
    public internal(set) var timings: ProcessingTimings
    /// How the file's image data was made.
    public internal(set) var encodingRoute: EncodingRoute
    let fileData: Data?
    /// The bracket member this photo is (Apple's `bracketSettings`); nil outside a bracket.
    public internal(set) var bracketSettings: ResolvedBracketedExposure?
    /// The exposure the camera applied for this bracket member, read back after setting it.
    public internal(set) var appliedExposure: AppliedExposure?
    /// Whether this is the RAW (DNG) photo of its request. A RAW + processed request delivers
    /// two photos with the same uniqueID; this tells them apart.
    public internal(set) var isRawPhoto = false
    /// For a RAW photo, what its DNG holds and the Bayer frame as captured; nil otherwise.
    public internal(set) var rawDetails: RawPhotoDetails? = nil

    /// The encoded file (JPEG, HEIC, TIFF or DNG), nil for ``PhotoFormat/uncompressed`` and for
    /// a photo delivered with an error.
    public func fileDataRepresentation() -> Data? { fileData }

    /// Writes the file to `path` atomically (temporary file + rename in the same folder); an
    /// existing file is replaced only when `overwrite` is true.
    public func write(to path: String, overwrite: Bool = false) throws(PhotoCaptureError) {
        guard let fileData else { throw PhotoCaptureError(.noFileRepresentation(resolvedSettings.format),
                                                          uniqueID: resolvedSettings.uniqueID) }
        try PhotoCaptureError.file { () throws(ImageFileError) in try AtomicFileWriter.write(fileData, to: path, overwrite: overwrite) }
    }

    /// Writes the file to the `file:` URL `url`, as ``write(to:overwrite:)-(String,_)`` does.
    public func write(to url: URL, overwrite: Bool = false) throws(PhotoCaptureError) {
        try write(to: PhotoCaptureError.file(url.filePath), overwrite: overwrite)
    }
}

// In an extension, so that the memberwise initializer stays.
extension CapturePhoto {
    /// Photo number `index` (0-based, in delivery order) of the request `resolved`, which could
    /// not be made: its place in the request, and no picture.
    init(failed index: Int, of resolved: ResolvedPhotoSettings) {
        // RAW + processed: two photos per captured frame, the RAW one first.
        let perFrame = resolved.rawPhoto != nil && resolved.format.isProcessed ? 2 : 1
        let member = index / perFrame
        self.init(resolvedSettings: resolved, sequenceCount: member + 1, photoCount: resolved.expectedPhotoCount,
                  frameSequence: 0, timestamp: 0, frameDelivery: FrameDelivery(), captureDate: Date(),
                  pixelBuffer: .empty, previewPixelBuffer: nil, embeddedThumbnailDimensions: nil, metadata: [:],
                  exif: EXIFProperties(), isSensorOrientationCompensationApplied: resolved.isSensorOrientationCompensationApplied,
                  writtenOrientation: resolved.writtenOrientation,
                  timings: ProcessingTimings(conversion: 0, scaling: 0, encoding: 0), encodingRoute: .none, fileData: nil,
                  bracketSettings: resolved.bracketedSettings.indices.contains(member) ? resolved.bracketedSettings[member] : nil,
                  isRawPhoto: resolved.rawPhoto != nil && (perFrame == 1 || index % perFrame == 0))
    }
}

/// How a photo's compressed image data was made.
public enum EncodingRoute: String, Sendable {
    /// Encoded from the converted pixels (the usual route).
    case encoded
    /// The camera's own JPEG (an MJPEG frame) kept as it came; only metadata was added.
    case cameraJPEG
    /// The camera's JPEG turned in the DCT domain, exactly (no re-encoding, no trimming).
    case losslessTransform
    /// No file: an uncompressed photo.
    case none
    /// The sensor's Bayer data stored unchanged in a DNG.
    case dng
    /// Developed from the RAW data with LibRaw, then converted and encoded like any frame.
    case developed
}

/// Durations of the processing steps of one photo, in seconds.
public struct ProcessingTimings: Sendable, Equatable {
    /// Format conversion, crop and transform (the one pass over the frame). A JPEG that is
    /// not quarter-turned converts its rows as its strips encode them: that time is in
    /// ``encoding``, and this is only the set-up.
    public let conversion: Double
    /// Preview and thumbnail scaling. A JPEG converted as it is encoded, without a preview,
    /// makes its thumbnail from the bands as they are converted: here only the last rows.
    public let scaling: Double
    /// Encoding and metadata (and, for a JPEG converted as it is encoded, the conversion).
    public let encoding: Double
    /// LibRaw development: of the whole frame for a processed photo made from RAW data, of
    /// the DNG's preview (and the preview pixel buffer) for a RAW photo; 0 otherwise.
    public internal(set) var development: Double = 0
}
