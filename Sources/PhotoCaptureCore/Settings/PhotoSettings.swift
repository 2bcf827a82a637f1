import Synchronization

/// The source of ``PhotoSettings/uniqueID``: process-wide, starting at 1, only ever increasing.
private let nextUniqueID = Atomic<Int64>(1)

/// What one photo request asks for, modelled on `AVCapturePhotoSettings`.
///
/// Every settings value gets a fresh, process-unique, monotonically increasing ``uniqueID`` when
/// it is created. A request may be submitted once: submitting the same `uniqueID` again is
/// rejected with ``PhotoCaptureError/Code/settingsReused``. To repeat a request, make a copy with
/// ``init(from:)``, which gets a new ID.
public struct PhotoSettings: Sendable {
    /// Identifies this request in resolved settings, photos, delegate calls and errors.
    public private(set) var uniqueID: Int64

    /// The output format: the processed photo's, or ``PhotoFormat/dng`` for a RAW photo alone.
    public var format: PhotoFormat
    /// The Bayer format of the RAW (DNG) photo, from ``PhotoOutput/availableRawPhotoPixelFormatTypes``.
    /// Setting it on a request for a processed `format` asks for RAW + processed: two photos from
    /// one frame. With `format` ``PhotoFormat/dng`` it picks the RAW format; nil there takes the
    /// device's first.
    public var rawPixelFormat: FramePixelFormat?
    /// JPEG and HEIC quality, 1...100. A TIFF is lossless: a quality other than the default
    /// is not used, and its resolved settings list that (``SettingsAdjustment/qualityIgnored(requested:format:)``).
    public var quality: Int = PhotoSettings.defaultQuality
    /// The quality a request has unless it sets one.
    static let defaultQuality = 90
    /// The x265 preset for HEIC.
    public var heicEncodingSpeed: HEICEncodingSpeed = .medium
    /// The largest frame (sensor orientation) to capture; nil captures at the device's largest
    /// size. The nearest achievable size is chosen and reported as an adjustment.
    public var maxPhotoDimensions: PixelSize?
    /// The camera pixel format to capture in, from ``PhotoOutput/availableFramePixelFormatTypes``;
    /// nil lets the device choose.
    public var framePixelFormat: FramePixelFormat?
    /// A box for a preview image delivered with the photo as a pixel buffer; nil for none.
    /// The preview keeps the photo's aspect ratio and gets the same physical transform.
    public var previewDimensions: PixelSize?
    /// A box for a thumbnail embedded in the file (JPEG: EXIF IFD1; HEIC: thumbnail item).
    public var embeddedThumbnailDimensions: PixelSize?
    /// Flash; devices without one resolve `.auto` to off and reject `.on`.
    public var flashMode: FlashMode = .off
    /// How the device is held, as the clockwise rotation in degrees that makes the compensated
    /// image upright (like `AVCaptureConnection.videoRotationAngle`): 0, 90, 180 or 270.
    public var rotationAngle: Int = 0
    /// The orientation handling of this request: ``CompensationChoice/outputDefault`` (the
    /// default) follows ``PhotoOutput/orientationCompensation``; `.mode(.off)`, for example,
    /// overrides it.
    public var orientationCompensation: CompensationChoice = .outputDefault
    /// A bracket: one photo per member, each exposed as the member says (see
    /// <doc:BracketedCapture>); empty for a single photo.
    public var bracketedSettings: [BracketedStillImageSettings] = []
    /// Location, artist, copyright, description and comment written into the photo's file
    /// (like `AVCapturePhotoSettings.metadata`).
    public var metadata = PhotoMetadata()
    /// How to focus the lens for this request: continuous autofocus, a manual lens position or
    /// one autofocus scan; the controls go back afterwards. nil (the default) leaves the
    /// camera's focus as it is. Rejected before capture on a camera without the mode (see
    /// ``CaptureDevice/focusCapabilities``).
    public var focus: FocusRequest?
    /// How much the photo may trade speed for less noise (like
    /// `AVCapturePhotoSettings.photoQualityPrioritization`): ``PhotoQualityPrioritization/balanced``
    /// by default. A request above the output's ``PhotoOutput/maxPhotoQualityPrioritization`` is
    /// rejected before capture.
    public var photoQualityPrioritization = PhotoQualityPrioritization.balanced

    /// New settings for `format` with a fresh ``uniqueID``.
    public init(format: PhotoFormat = .jpeg) {
        uniqueID = nextUniqueID.add(1, ordering: .relaxed).oldValue
        self.format = format
    }

    /// A copy of `other` with a fresh ``uniqueID``, for repeating a request.
    public init(from other: PhotoSettings) {
        self = other
        uniqueID = nextUniqueID.add(1, ordering: .relaxed).oldValue
    }
}
