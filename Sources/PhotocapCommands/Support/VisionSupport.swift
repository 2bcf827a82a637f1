import ArgumentParser
import PhotoCapture

/// What needs OpenCV: `watch`, `shoot --smart-framing` and `shoot --faces`, implemented in
/// `photocap-vision`.
///
/// OpenCV's libraries (objdetect pulls in dnn, protobuf, LAPACK, GL…) cost some 7 ms of dynamic
/// linking at every start, a sixth of a whole `photocap shoot`. So `photocap` does not link
/// them: a command that needs faces replaces the process with `photocap-vision`, built beside
/// it (the same commands, with OpenCV), with the same arguments. The user sees one program.
package enum VisionSupport {
    /// The commands that need OpenCV, as `photocap-vision` provides them.
    package struct Implementation: Sendable {
        /// Runs `photocap watch`.
        package var watch: @Sendable (WatchCommand) async throws -> Void
        /// Starts the smart framing monitor on the running session, applies its recommendation
        /// and reports it.
        package var applySmartFraming: @Sendable (ShootCommand, CaptureSession, CaptureDevice) async throws(PhotoCaptureError)
            -> SmartFramingReport
        /// Tracks the faces in view on the running session under its current framing, for a
        /// bounded time, and gives them as the photo's regions.
        package var trackFaces: @Sendable (ShootCommand, CaptureSession) async throws(PhotoCaptureError) -> [PhotoRegion]

        /// Groups the implementations.
        package init(watch: @escaping @Sendable (WatchCommand) async throws -> Void,
                     applySmartFraming: @escaping @Sendable (ShootCommand, CaptureSession, CaptureDevice) async throws(PhotoCaptureError)
                         -> SmartFramingReport,
                     trackFaces: @escaping @Sendable (ShootCommand, CaptureSession) async throws(PhotoCaptureError) -> [PhotoRegion]) {
            self.watch = watch
            self.applySmartFraming = applySmartFraming
            self.trackFaces = trackFaces
        }
    }

    /// Set once by `photocap-vision`'s entry point, before the arguments are parsed; nil in `photocap`.
    nonisolated(unsafe) package static var installed: Implementation?

    /// The executable's name, beside `photocap`.
    package static let executableName = "photocap-vision"

    /// The implementation in this process; in `photocap`, this process becomes `photocap-vision`
    /// (execv: same process, arguments, environment and standard streams) and does not return.
    /// Throws, naming `command`, when `photocap-vision` is not beside `photocap`.
    package static func implementation(for command: String) throws -> Implementation {
        if let installed { return installed }
        try SiblingExecutable.replaceProcess(with: executableName, for: command, purpose: "OpenCV's face detection")
    }
}
