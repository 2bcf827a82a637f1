import Foundation
import PhotoCapture

/// The `--json` line for one photo.
struct PhotoReport: Encodable {
    struct Size: Encodable { let width: Int; let height: Int }
    struct Timings: Encodable { let conversionMs: Double; let scalingMs: Double; let encodingMs: Double }

    let path: String?
    let previewPath: String?
    let uniqueID: Int64
    let format: String
    let dimensions: Size
    let displayedDimensions: Size
    let previewDimensions: Size?
    let thumbnailDimensions: Size?
    let orientationWritten: Int
    let pixelTransform: Int
    let compensationApplied: Bool
    let orientationCompensation: String
    let sensorRotation: Int
    let sensorMirrored: Bool
    let rotationAngle: Int
    let frameFormat: String
    let frameDimensions: Size
    let frameSequence: UInt64
    let sequenceCount: Int
    let photoCount: Int
    let adjustments: [String]
    let timings: Timings

    init(photo: CapturePhoto, path: String?, previewPath: String?) {
        let r = photo.resolvedSettings
        func size(_ s: PixelSize) -> Size { Size(width: s.width, height: s.height) }
        self.path = path
        self.previewPath = previewPath
        uniqueID = r.uniqueID
        format = r.format.rawValue
        dimensions = size(r.photoDimensions)
        displayedDimensions = size(r.displayedPhotoDimensions)
        previewDimensions = r.previewDimensions.map(size)
        thumbnailDimensions = photo.embeddedThumbnailDimensions.map(size)
        orientationWritten = photo.writtenOrientation.exifValue
        pixelTransform = r.pixelTransform.exifValue
        compensationApplied = photo.isSensorOrientationCompensationApplied
        orientationCompensation = r.orientationCompensation.rawValue
        sensorRotation = r.sensorMounting.rotation
        sensorMirrored = r.sensorMounting.isMirrored
        rotationAngle = r.rotationAngle
        frameFormat = r.framePixelFormat.fourCC
        frameDimensions = size(r.frameDimensions)
        frameSequence = photo.frameSequence
        sequenceCount = photo.sequenceCount
        photoCount = photo.photoCount
        adjustments = r.adjustments.map(\.description)
        timings = Timings(conversionMs: photo.timings.conversion * 1000, scalingMs: photo.timings.scaling * 1000,
                          encodingMs: photo.timings.encoding * 1000)
    }

    func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
