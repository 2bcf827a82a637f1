import PhotocapCommands
import PhotoCaptureVision

extension FaceReport {
    /// The report of a tracked face.
    init(_ face: MetadataFaceObject) {
        self.init(id: face.detectedObjectID, x: face.bounds.x, y: face.bounds.y, width: face.bounds.width,
                  height: face.bounds.height, timestamp: face.timestamp)
    }
}
