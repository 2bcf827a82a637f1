import Foundation
import PhotoCapture

/// The `--json` line for one photo.
struct PhotoReport: Encodable {
    struct Timings: Encodable { let conversionMs: Double; let scalingMs: Double; let encodingMs: Double }

    let path: String?
    let previewPath: String?
    let uniqueID: Int64
    let format: String
    let dimensions: JSONSize
    let displayedDimensions: JSONSize
    let previewDimensions: JSONSize?
    let thumbnailDimensions: JSONSize?
    let orientationWritten: Int
    let pixelTransform: Int
    let compensationApplied: Bool
    let orientationCompensation: String
    let sensorRotation: Int
    let sensorMirrored: Bool
    let rotationAngle: Int
    let frameFormat: String
    let frameDimensions: JSONSize
    let frameSequence: UInt64
    let encodingRoute: String
    let device: String
    let staleFramesSkipped: Int
    let corruptFramesSkipped: Int
    let droppedFrames: Int
    let streamRestarts: Int
    let requestToExposureMs: Double
    let requestToDeliveryMs: Double
    let sequenceCount: Int
    let photoCount: Int
    let adjustments: [String]
    let timings: Timings
    let crop: CropReport

    init(photo: CapturePhoto, path: String?, previewPath: String?, device: String) {
        let r = photo.resolvedSettings
        self.path = path
        self.previewPath = previewPath
        uniqueID = r.uniqueID
        format = r.format.rawValue
        dimensions = JSONSize(r.photoDimensions)
        displayedDimensions = JSONSize(r.displayedPhotoDimensions)
        previewDimensions = r.previewDimensions.map(JSONSize.init)
        thumbnailDimensions = photo.embeddedThumbnailDimensions.map(JSONSize.init)
        orientationWritten = photo.writtenOrientation.exifValue
        pixelTransform = r.pixelTransform.exifValue
        compensationApplied = photo.isSensorOrientationCompensationApplied
        orientationCompensation = r.orientationCompensation.rawValue
        sensorRotation = r.sensorMounting.rotation
        sensorMirrored = r.sensorMounting.isMirrored
        rotationAngle = r.rotationAngle
        frameFormat = r.framePixelFormat.fourCC
        frameDimensions = JSONSize(r.frameDimensions)
        frameSequence = photo.frameSequence
        encodingRoute = photo.encodingRoute.rawValue
        self.device = device
        let delivery = photo.frameDelivery
        staleFramesSkipped = delivery.staleFramesSkipped
        corruptFramesSkipped = delivery.corruptFramesSkipped
        droppedFrames = delivery.droppedFrames
        streamRestarts = delivery.streamRestarts
        requestToExposureMs = Double(delivery.requestToExposureNanoseconds) / 1e6
        requestToDeliveryMs = Double(delivery.requestToDeliveryNanoseconds) / 1e6
        sequenceCount = photo.sequenceCount
        photoCount = photo.photoCount
        adjustments = r.adjustments.map(\.description)
        crop = CropReport(r.framing)
        timings = Timings(conversionMs: photo.timings.conversion * 1000, scalingMs: photo.timings.scaling * 1000,
                          encodingMs: photo.timings.encoding * 1000)
    }

    func jsonLine() -> String {
        (try? jsonText(self)) ?? "{}"
    }
}
