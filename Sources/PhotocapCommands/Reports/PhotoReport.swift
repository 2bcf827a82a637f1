import FoundationEssentials
import PhotoCapture

/// The `--json` line for one photo.
struct PhotoReport: Encodable {
    struct Timings: Encodable {
        let conversionMs: Double; let scalingMs: Double; let encodingMs: Double; let developmentMs: Double
    }

    /// What a RAW photo's DNG holds.
    struct RawDetails: Encodable {
        let pixelFormat: String
        let cfaPattern: String
        let bitsPerSample: Int
        let storedBitsPerSample: Int
        let blackLevel: Int
        let whiteLevel: Int
        let dimensions: JSONSize
        let orientation: Int
        let thumbnailDimensions: JSONSize
        let asShotNeutral: [Double]
        let colorMatrix: [Double]
        let calibrationIlluminant: Int

        init(_ details: RawPhotoDetails) {
            pixelFormat = details.frame.format.fourCC
            cfaPattern = details.cfaPattern.rawValue.uppercased()
            bitsPerSample = details.bitsPerSample
            storedBitsPerSample = details.storedBitsPerSample
            blackLevel = details.blackLevel
            whiteLevel = details.whiteLevel
            dimensions = JSONSize(details.frame.size)
            orientation = details.writtenOrientation.exifValue
            thumbnailDimensions = JSONSize(details.thumbnailDimensions)
            asShotNeutral = details.calibration.asShotNeutral
            colorMatrix = details.calibration.colorMatrix
            calibrationIlluminant = details.calibration.calibrationIlluminant
        }
    }

    let path: String?
    let previewPath: String?
    let uniqueID: Int64
    let format: String
    let isRawPhoto: Bool
    let raw: RawDetails?
    let dimensions: JSONSize
    let displayedDimensions: JSONSize
    let previewDimensions: JSONSize?
    let thumbnailDimensions: JSONSize?
    let orientationWritten: Int
    let pixelTransform: Int
    let compensationApplied: Bool
    let orientationCompensation: String
    let sensorRotation: Int
    /// Where `sensorRotation` came from: `--sensor-rotation`, or the camera's report (as
    /// `devices --json` says it); nil when nothing gave one (0°).
    var sensorRotationSource: String?
    let sensorMirrored: Bool
    let rotationAngle: Int
    let frameFormat: String
    let frameDimensions: JSONSize
    let frameSequence: UInt64
    /// When the frame's exposure started, on the monotonic clock (``CapturePhoto/timestamp``).
    let frameTimestampNs: UInt64
    let encodingRoute: String
    let device: String
    let staleFramesSkipped: Int
    let corruptFramesSkipped: Int
    let droppedFrames: Int
    let streamRestarts: Int
    let requestToExposureMs: Double
    /// Signed: negative when the exposure was under way at the request (zero shutter lag).
    let exposureStartOffsetMs: Double
    /// The rule that picked the frame: zeroShutterLag, firstFrameAfterRequest, firstFrameAfterChange.
    let frameSelection: String
    let requestToDeliveryMs: Double
    let sequenceCount: Int
    let photoCount: Int
    let adjustments: [String]
    let timings: Timings
    let bracket: BracketReport?
    let crop: CropReport
    /// The focus the request set and where the lens went; absent without `--focus`.
    let focus: FocusReport?
    /// The frames the photo was merged from (`--quality-prioritization`).
    let frameMerging: FrameMergingReport
    /// Where the photo stands in a timelapse (`--interval`).
    var timelapse: TimelapseReport?

    init(photo: CapturePhoto, path: String?, previewPath: String?, device: String) {
        let r = photo.resolvedSettings
        self.path = path
        self.previewPath = previewPath
        uniqueID = r.uniqueID
        isRawPhoto = photo.isRawPhoto
        raw = photo.rawDetails.map(RawDetails.init)
        if let rawPhoto = r.rawPhoto, photo.isRawPhoto {
            // The DNG of a RAW + processed request: its own format and sizes.
            format = PhotoFormat.dng.rawValue
            dimensions = JSONSize(rawPhoto.dimensions)
            displayedDimensions = JSONSize(rawPhoto.displayedDimensions)
        } else {
            format = r.format.rawValue
            dimensions = JSONSize(r.photoDimensions)
            displayedDimensions = JSONSize(r.displayedPhotoDimensions)
        }
        previewDimensions = photo.previewPixelBuffer.map { JSONSize($0.size) }
        thumbnailDimensions = photo.embeddedThumbnailDimensions.map(JSONSize.init)
        orientationWritten = photo.writtenOrientation.exifValue
        pixelTransform = photo.isRawPhoto ? Orientation.up.exifValue : r.pixelTransform.exifValue
        compensationApplied = photo.isSensorOrientationCompensationApplied
        orientationCompensation = r.orientationCompensation.rawValue
        sensorRotation = r.sensorMounting.rotation
        sensorMirrored = r.sensorMounting.isMirrored
        rotationAngle = r.rotationAngle
        frameFormat = r.framePixelFormat.fourCC
        frameDimensions = JSONSize(r.frameDimensions)
        frameSequence = photo.frameSequence
        frameTimestampNs = photo.timestamp
        encodingRoute = photo.encodingRoute.rawValue
        self.device = device
        let delivery = photo.frameDelivery
        staleFramesSkipped = delivery.staleFramesSkipped
        corruptFramesSkipped = delivery.corruptFramesSkipped
        droppedFrames = delivery.droppedFrames
        streamRestarts = delivery.streamRestarts
        requestToExposureMs = Double(delivery.requestToExposureNanoseconds) / 1e6
        requestToDeliveryMs = Double(delivery.requestToDeliveryNanoseconds) / 1e6
        exposureStartOffsetMs = Double(delivery.exposureStartOffsetNanoseconds) / 1e6
        frameSelection = delivery.frameSelection.rawValue
        sequenceCount = photo.sequenceCount
        photoCount = photo.photoCount
        adjustments = r.adjustments.map(\.description)
        crop = CropReport(r.framing)
        timings = Timings(conversionMs: photo.timings.conversion * 1000, scalingMs: photo.timings.scaling * 1000,
                          encodingMs: photo.timings.encoding * 1000, developmentMs: photo.timings.development * 1000)
        bracket = BracketReport(photo)
        focus = FocusReport(r)
        frameMerging = FrameMergingReport(r.frameMerging)
        regions = RegionReport.written(in: photo)
    }

    /// What `--smart-framing` chose and the faces it saw; absent without it.
    var smartFraming: SmartFramingReport?
    /// The regions (faces) written into the photo's XMP; absent when none were given.
    var regions: [RegionReport]?

    func jsonLine() -> String {
        (try? jsonText(self)) ?? "{}"
    }
}
