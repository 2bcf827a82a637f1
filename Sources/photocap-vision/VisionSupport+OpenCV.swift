import PhotoCapture
import PhotocapCommands

extension VisionSupport.Implementation {
    /// The commands with OpenCV's face detection (PhotoCaptureVision).
    static let openCV = VisionSupport.Implementation(
        watch: { try await $0.watch() },
        applySmartFraming: { (command, session, camera) throws(PhotoCaptureError) in
            try await command.applySmartFraming(session: session, camera: camera)
        },
        trackFaces: { (command, session) throws(PhotoCaptureError) in
            try await command.trackFaces(session: session)
        })
}
