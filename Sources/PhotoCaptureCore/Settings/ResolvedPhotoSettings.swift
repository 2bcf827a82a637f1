import Imaging

/// What the pipeline will do — and did — for one request, modelled on
/// `AVCaptureResolvedPhotoSettings` and libcamera's validated configuration.
///
/// Immutable; carries the same ``uniqueID`` as the ``PhotoSettings`` it was resolved from.
/// Every value that differs from what was asked is listed in ``adjustments``.
public struct ResolvedPhotoSettings: Sendable, Equatable {
    /// The request's ID, equal to ``PhotoSettings/uniqueID``.
    public let uniqueID: Int64
    /// The output format.
    public let format: PhotoFormat
    /// JPEG/HEIC quality used.
    public let quality: Int
    /// The x265 preset used for HEIC.
    public let heicEncodingSpeed: HEICEncodingSpeed
    /// The camera pixel format captured.
    public let framePixelFormat: FramePixelFormat
    /// The frame size captured (sensor orientation): the crop's size when the driver crops.
    public let frameDimensions: PixelSize
    /// The part of the captured frame used (even-aligned for 4:2:0): the aspect ratio and zoom
    /// crop when photocap crops, the whole frame otherwise.
    public let cropRect: PixelRect
    /// The stored photo's pixel size (after any physical rotation).
    public let photoDimensions: PixelSize
    /// The size a viewer shows after applying ``writtenOrientation``.
    public let displayedPhotoDimensions: PixelSize
    /// The preview pixel buffer's size, nil when none was asked for.
    public let previewDimensions: PixelSize?
    /// The embedded thumbnail's stored size, nil when none.
    public let embeddedThumbnailDimensions: PixelSize?
    /// Photos this request delivers.
    public let expectedPhotoCount: Int
    /// Whether the flash fires (`.auto` resolved).
    public let isFlashEnabled: Bool
    /// The device rotation angle (clockwise degrees, 0..<360).
    public let rotationAngle: Int
    /// The sensor mounting the pipeline compensated for.
    public let sensorMounting: SensorMounting
    /// The orientation mode used.
    public let orientationCompensation: OrientationCompensation
    /// The transform applied to the pixels.
    public let pixelTransform: Orientation
    /// The orientation written into the file's metadata.
    public let writtenOrientation: Orientation
    /// Whether the sensor mounting was compensated in the pixels.
    public let isSensorOrientationCompensationApplied: Bool
    /// Every value chosen differently from the request, with the reason.
    public let adjustments: [SettingsAdjustment]
    /// The bracket's members in sequence order, as they will be exposed; empty for a single photo.
    public let bracketedSettings: [ResolvedBracketedExposure]
    /// The aspect ratio and zoom crop, and whether the driver or the conversion pass made it.
    public let framing: PhotoFraming
    /// The RAW (DNG) photo of the request; nil when it asks for none. With
    /// ``format`` ``PhotoFormat/dng`` the fields above describe the same photo.
    public internal(set) var rawPhoto: ResolvedRawPhotoSettings? = nil
    /// The app's metadata, written into every photo of the request.
    public internal(set) var metadata = PhotoMetadata()
    /// How the lens is focused for the request, and (in the resolved settings of a capture,
    /// from `didCapturePhoto` on) where it went; nil when the request leaves focus alone.
    public internal(set) var focus: ResolvedFocus? = nil
    /// The frames the processed photo is merged from (planned, then in the photo's settings
    /// done), and why not more.
    public internal(set) var frameMerging = FrameMerging(.speed, framesPlanned: 1)
}

/// What the RAW (DNG) photo of a request will be, modelled on the `raw…` fields of
/// `AVCaptureResolvedPhotoSettings`.
public struct ResolvedRawPhotoSettings: Sendable, Equatable {
    /// The Bayer format captured and stored.
    public let pixelFormat: FramePixelFormat
    /// The size of the CFA data: the frame as the sensor delivered it, never turned.
    public let dimensions: PixelSize
    /// The DNG Orientation tag: the whole correction (sensor mounting, mirror and device
    /// rotation), since RAW data is never compensated.
    public let writtenOrientation: Orientation
    /// The size a viewer shows after applying ``writtenOrientation``.
    public let displayedDimensions: PixelSize
    /// The size of the developed preview stored in the DNG's IFD0 (as stored, like the CFA data).
    public let embeddedThumbnailDimensions: PixelSize
}

/// A value the resolution chose differently from the request.
public enum SettingsAdjustment: Sendable, Equatable, CustomStringConvertible {
    /// The nearest frame size the device offers.
    case frameDimensions(requested: PixelSize, chosen: PixelSize)
    /// The preview keeps the photo's aspect ratio inside the requested box.
    case previewDimensions(requested: PixelSize, chosen: PixelSize)
    /// The thumbnail keeps the photo's aspect ratio inside the requested box.
    case thumbnailDimensions(requested: PixelSize, chosen: PixelSize)
    /// `.auto` flash resolved to this value.
    case flashMode(requested: FlashMode, enabled: Bool)
    /// Rotation angle normalised to 0..<360.
    case rotationAngle(requested: Int, chosen: Int)
    /// The frame format chosen by the device when none was requested.
    case framePixelFormat(chosen: FramePixelFormat)
    /// A bracket member's bias, to the nearest the camera achieves (EV).
    case exposureTargetBias(sequenceCount: Int, requested: Double, chosen: Double)
    /// A bracket member's exposure time, to the nearest the camera achieves (seconds).
    case exposureDuration(sequenceCount: Int, requested: Double, chosen: Double)
    /// A bracket member's ISO, to the nearest the camera achieves.
    case iso(sequenceCount: Int, requested: Double, chosen: Double)
    /// The RAW (Bayer) format chosen by the device when a RAW photo named none.
    case rawPixelFormat(chosen: FramePixelFormat)
    /// A manual lens position, clamped to the focus control's range and rounded to its step.
    case lensPosition(requested: Double, chosen: Double)
    /// The quality asked for is not used: `format` is lossless (TIFF).
    case qualityIgnored(requested: Int, format: PhotoFormat)

    /// One line for people.
    public var description: String {
        switch self {
        case .frameDimensions(let r, let c): return "frame size \(r) → \(c) (nearest the device offers)"
        case .previewDimensions(let r, let c): return "preview \(r) → \(c) (photo aspect ratio)"
        case .thumbnailDimensions(let r, let c): return "thumbnail \(r) → \(c) (photo aspect ratio)"
        case .flashMode(let r, let e): return "flash \(r.rawValue) → \(e ? "on" : "off")"
        case .rotationAngle(let r, let c): return "rotation angle \(r) → \(c)"
        case .framePixelFormat(let c): return "frame pixel format → \(c) (device default)"
        case .exposureTargetBias(let n, let r, let c):
            return "bracket member \(n): bias \(ExposureText.bias(r)) → \(ExposureText.bias(c)) EV (nearest the camera achieves)"
        case .exposureDuration(let n, let r, let c):
            return "bracket member \(n): exposure \(ExposureText.duration(r)) → \(ExposureText.duration(c)) (camera range)"
        case .iso(let n, let r, let c):
            return "bracket member \(n): ISO \(ExposureText.number(r)) → \(ExposureText.number(c)) (camera range)"
        case .rawPixelFormat(let c): return "RAW pixel format → \(c) (the device's first RAW format)"
        case .lensPosition(let r, let c):
            return "lens position \(ExposureText.number(r)) → \(ExposureText.number(c)) (focus control range)"
        case .qualityIgnored(let r, let format):
            return "quality \(r) → not used (\(format.rawValue.uppercased()) is lossless)"
        }
    }
}
