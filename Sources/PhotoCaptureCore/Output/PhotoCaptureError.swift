import Codecs
import ImageFiles
import Imaging

/// Why a request was rejected or a capture failed.
///
/// Errors raised for a request carry its ``PhotoSettings/uniqueID``, so an app that has several
/// requests in flight knows which one ended.
public struct PhotoCaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request this error ends, when it belongs to one.
    public let uniqueID: Int64?
    /// What went wrong.
    public let code: Code

    /// Creates an error for `code`, attributed to the request `uniqueID` if any.
    public init(_ code: Code, uniqueID: Int64? = nil) {
        self.code = code
        self.uniqueID = uniqueID
    }

    /// The same error attributed to request `uniqueID`.
    public func attributed(to uniqueID: Int64) -> PhotoCaptureError {
        PhotoCaptureError(code, uniqueID: self.uniqueID ?? uniqueID)
    }

    /// The kinds of failure.
    public enum Code: Sendable, Equatable {
        // Rejected before capture.
        /// These settings (this uniqueID) were already submitted; make new settings or copy them.
        case settingsReused
        /// JPEG/HEIC quality must be 1...100.
        case qualityOutOfRange(Int)
        /// The request's ``PhotoSettings/photoQualityPrioritization`` is above the output's
        /// ``PhotoOutput/maxPhotoQualityPrioritization``.
        case qualityPrioritizationAboveMaximum(requested: PhotoQualityPrioritization, maximum: PhotoQualityPrioritization)
        /// The device has no flash, so `.on` cannot be honoured.
        case flashUnavailable
        /// Rotation angles are multiples of 90 degrees.
        case invalidRotationAngle(Int)
        /// The device does not deliver frames in this pixel format.
        case pixelFormatUnavailable(requested: FramePixelFormat, available: [FramePixelFormat])
        /// A requested size has a zero or negative side.
        case invalidDimensions(PixelSize)
        /// The preview box exceeds the photo.
        case previewLargerThanPhoto(preview: PixelSize, photo: PixelSize)
        /// The thumbnail box exceeds the photo or what the format can embed.
        case thumbnailTooLarge(requested: PixelSize, limit: PixelSize)
        /// The photo format cannot embed a thumbnail.
        case thumbnailUnsupported(PhotoFormat)
        /// The output is not attached to a session with an input device.
        case notConnected
        /// The session is not running.
        case sessionNotRunning
        /// A session takes one input device.
        case inputAlreadySet
        /// The output is already attached to a session.
        case outputAlreadyAttached
        /// Zoom factors run from 1 to the device's ``CaptureDevice/maxVideoZoomFactor``.
        case invalidZoomFactor(Double, maximum: Double)
        /// A RAW photo was asked of a device that delivers no Bayer format; `available` lists
        /// what it does deliver.
        case rawUnavailable(device: String, available: [FramePixelFormat])
        /// The RAW pixel format asked for is not a Bayer format.
        case notARawPixelFormat(FramePixelFormat)
        /// RAW + processed come from one frame, so a separate processed frame format cannot be
        /// honoured.
        case rawFrameFormatConflict(raw: FramePixelFormat, frame: FramePixelFormat)

        // Devices.
        /// The frame file cannot be read; `error` says why (missing, a folder, a FIFO, a failed
        /// call with its errno).
        case frameFileUnreadable(FileReadError)
        /// A frame file given as MJPEG does not start as a JPEG file does (FF D8).
        case frameFileNotJPEG(path: String)
        /// The frame file's length does not match its declared format and size.
        case frameFileSizeMismatch(path: String, expected: Int, actual: Int)
        /// The clip cannot be played; `error` says why (a malformed header, a truncated frame).
        case clipUnreadable(path: String, ClipError)
        /// The clip's stream reached its last frame, after `frames` frames.
        case clipEnded(path: String, frames: Int)
        /// `device` delivered no `frame` within `milliseconds`: ``PhotoOutput/frameTimeout``
        /// when set, else a multiple of a real camera's frame interval (a synthetic or
        /// frame-file camera makes its frames on demand and never times out).
        case frameTimeout(milliseconds: Int, device: String, frame: AwaitedFrame)
        /// The camera failed; the backend's error says how.
        case deviceFailure(DeviceError)
        /// The device offers no pixel format photocap can capture in.
        case noCapturableFormat
        /// The stream delivered another format or size than the capture was started with.
        case streamFormatChanged(expected: String, delivered: String)
        /// The capture finished without delivering a photo.
        case captureEndedWithoutPhoto
        /// An output added to the session (faces, smart framing) failed; its own error, typed,
        /// says why.
        case outputFailed(OutputError)
        /// The camera was unplugged or unregistered (ENODEV); the session cannot use it again.
        case deviceDisconnected(device: String)
        /// Another process is using the camera (EBUSY).
        case deviceBusy(device: String)
        /// The user may not open the camera (EACCES): add them to the `video` group.
        case permissionDenied(device: String)
        /// No camera at this path.
        case noSuchDevice(device: String)
        /// The node is not a video capture device (a metadata or output node, say).
        case notACaptureDevice(device: String)
        /// The node is one stage of a media-controller pipeline (V4L2_CAP_IO_MC): it streams only
        /// once the pipeline is configured, which libcamera does for its camera. `libcameraCameras`
        /// are the ids of the cameras libcamera lists (empty when it lists none or is not loaded).
        /// Also the error of a node opened by name whose pipeline refused to stream
        /// (VIDIOC_STREAMON failing with EPIPE: links or formats not configured to match).
        case pipelineNode(device: String, libcameraCameras: [String])
        /// Camera devices exist but none can be used, each for the reason in `problems`: no
        /// synthetic picture is taken in place of a photo then.
        case noUsableCamera(problems: [PhotoCaptureError])
        /// A call to the camera failed; the error names the device, the call (e.g. the ioctl
        /// `VIDIOC_STREAMON`) and the errno.
        case deviceCallFailed(DeviceError)
        /// Frame after frame came back flagged as corrupt.
        case corruptFrames(device: String, count: Int)
        /// The camera's compressed (MJPEG) frame for the photo could not be decoded; the codec
        /// error says why.
        case frameUndecodable(device: String, CodecError)
        /// A control name that the device does not have, or a value it refuses.
        case invalidControl(String)
        /// ``ControlChanges/restore()`` could not set back `controls`; `error` is the first failed
        /// call's (the other controls were restored).
        case controlsNotRestored(device: String, controls: [String], error: DeviceError)
        /// A bracket was rejected, or the controls it changed could not be restored.
        case bracket(BracketProblem)
        /// A request's focus was rejected, or the focus controls it changed could not be restored.
        case focus(FocusProblem)
        /// The driver did not crop as asked; later photos of this device are cropped in software.
        /// `error` is the driver's refusal; nil when the camera has no driver crop at all.
        case hardwareCropRefused(device: String, error: DeviceError?)

        // Processing and files.
        /// Converting or scaling the frame failed.
        case imaging(ImagingError)
        /// Encoding or metadata failed; the codec error names the library call.
        case encoding(CodecError)
        /// This photo format has no file representation (an uncompressed pixel buffer).
        case noFileRepresentation(PhotoFormat)
        /// LibRaw could not develop the RAW data; the codec error names the call.
        case rawDevelopmentFailed(CodecError)
        /// LibRaw developed a picture of another size than the RAW frame.
        case developedSizeMismatch(developed: PixelSize, frame: PixelSize)
        /// A file given for development is not a DNG, or is truncated or damaged (or, as
        /// `CodecError.file`, cannot be read at all).
        case unreadableRaw(path: String, error: CodecError)
        /// Development makes processed photos (JPEG, HEIC, TIFF or uncompressed), not this format.
        case developmentFormatUnsupported(PhotoFormat)
        /// Writing the photo's file failed, or a URL given for a file is not a `file:` URL; the
        /// file layer's error says how.
        case file(ImageFileError)
        /// A value of ``PhotoSettings/metadata`` is out of range (a latitude beyond 90°, ...).
        case invalidMetadata(String)
    }

    /// The lower layer's error this one carries, if any: a ``CodecError``, a backend's error (a
    /// ``V4L2Error``, the ``DeviceError/underlying`` cause of a device's failure) or an
    /// ``ImagingError``, typed, for an app that wants more than the message.
    public var underlyingError: (any Error & Sendable)? {
        switch code {
        case .encoding(let error), .rawDevelopmentFailed(let error), .unreadableRaw(_, let error),
             .frameUndecodable(_, let error): return error
        case .file(let error): return error
        case .deviceFailure(let error), .deviceCallFailed(let error), .controlsNotRestored(_, _, let error): return error.underlying
        case .hardwareCropRefused(_, let error): return error?.underlying
        case .imaging(let error): return error
        case .outputFailed(let error): return error.underlying
        case .clipUnreadable(_, let error): return error
        case .frameFileUnreadable(let error): return error
        case .bracket(let problem): return problem
        case .focus(let problem): return problem
        default: return nil
        }
    }

    /// One line for people, naming the request.
    public var description: String {
        let prefix = uniqueID.map { "request \($0): " } ?? ""
        return prefix + codeDescription
    }

    private var codeDescription: String {
        switch code {
        case .settingsReused: return "these photo settings were already used; create new settings (or copy them with PhotoSettings(from:))"
        case .qualityOutOfRange(let q): return "quality \(q) is out of range (1...100)"
        case .qualityPrioritizationAboveMaximum(let requested, let maximum):
            return "quality prioritization \(requested) is above the output's maximum, \(maximum)"
        case .flashUnavailable: return "flash mode .on requested but the device has no flash"
        case .invalidRotationAngle(let a): return "rotation angle \(a) is not a multiple of 90 degrees"
        case .pixelFormatUnavailable(let requested, let available):
            return "pixel format \(requested) is not offered by the device (available: \(available.map(\.fourCC).joined(separator: ", ")))"
        case .invalidDimensions(let size): return "invalid dimensions \(size)"
        case .previewLargerThanPhoto(let preview, let photo): return "preview \(preview) is larger than the photo \(photo)"
        case .thumbnailTooLarge(let requested, let limit): return "thumbnail \(requested) exceeds the limit \(limit)"
        case .thumbnailUnsupported(let format): return "\(format) files cannot embed a thumbnail"
        case .notConnected: return "the photo output is not attached to a session with an input device"
        case .sessionNotRunning: return "the capture session is not running"
        case .inputAlreadySet: return "the session already has an input device"
        case .outputAlreadyAttached: return "the photo output is already attached to a session"
        case .invalidZoomFactor(let factor, let maximum): return "zoom factor \(factor) is outside 1...\(maximum)"
        case .rawUnavailable(let device, let available):
            return "\(device) delivers no Bayer (RAW) format, so it cannot take RAW photos (it delivers: "
                + available.map(\.fourCC).joined(separator: ", ") + ")"
        case .notARawPixelFormat(let format): return "\(format) is not a Bayer (RAW) pixel format"
        case .rawFrameFormatConflict(let raw, let frame):
            return "RAW + processed photos come from one \(raw) frame; frame pixel format \(frame) cannot be used as well"
        case .frameFileUnreadable(let error): return "cannot read frame file \(error.path): \(error.reason)"
        case .frameFileNotJPEG(let path): return "cannot read frame file \(path): an MJPEG frame must be a JPEG file (FF D8 ...)"
        case .frameFileSizeMismatch(let path, let expected, let actual):
            return "frame file \(path) has \(actual) bytes but the given format and size need \(expected)"
        case .clipUnreadable(let path, let error): return "cannot play clip \(path): \(error)"
        case .clipEnded(let path, let frames): return "the clip \(path) ended after \(frames) frames"
        case .frameTimeout(let ms, let device, let frame):
            return "no frame arrived within \(ms) ms from \(device); it waited for \(frame)"
        case .deviceFailure(let error): return "camera failure: \(error)"
        case .noCapturableFormat: return "camera failure: the device offers no format"
        case .streamFormatChanged(let expected, let delivered):
            return "camera failure: the stream switched from \(expected) to \(delivered) during the capture"
        case .captureEndedWithoutPhoto: return "camera failure: the capture ended without a photo"
        case .outputFailed(let error): return error.description
        case .deviceDisconnected(let device): return "\(device) was disconnected"
        case .deviceBusy(let device): return "\(device) is busy (another program is using it)"
        case .permissionDenied(let device):
            return "permission denied opening \(device) (is the user in the 'video' group?)"
        case .noSuchDevice(let device): return "no camera at \(device)"
        case .notACaptureDevice(let device): return "\(device) is not a video capture device"
        case .pipelineNode(let device, let cameras):
            let what = "\(device) is one stage of a media-controller pipeline, which streams only once it is configured"
            return cameras.isEmpty
                ? what + " (its links, and formats that match from the sensor to this node): configure it with media-ctl, "
                    + "or use libcamera's camera, which libcamera does not list here"
                : what + ": use libcamera's camera, " + cameras.map { "--device '\($0)'" }.joined(separator: " or ")
        case .noUsableCamera(let problems):
            return "no camera of this machine can be used: " + problems.map(\.description).joined(separator: "; ")
        case .deviceCallFailed(let error): return error.description
        case .corruptFrames(let device, let count): return "\(device) delivered \(count) corrupt frames in a row"
        case .frameUndecodable(let device, let error): return "\(device) delivered a frame that cannot be decoded: \(error)"
        case .invalidControl(let text): return text
        case .controlsNotRestored(let device, let controls, let error):
            return "\(device): could not restore \(controls.joined(separator: ", ")): \(error)"
        case .invalidMetadata(let text): return "invalid photo metadata: \(text)"
        case .bracket(let problem): return problem.description
        case .focus(let problem): return problem.description
        case .hardwareCropRefused(let device, let error):
            return "\(device) refused the hardware crop (\(error.map(\.description) ?? "this camera has no driver crop")); "
                + "later photos are cropped in software"
        case .imaging(let error): return "image conversion failed: \(error)"
        case .encoding(let error): return "encoding failed: \(error)"
        case .noFileRepresentation(let format): return "encoding failed: \(format) photos have no file representation"
        case .rawDevelopmentFailed(let error): return "RAW development failed: \(error)"
        case .developedSizeMismatch(let developed, let frame):
            return "RAW development failed: LibRaw developed \(developed) from a \(frame) frame"
        case .unreadableRaw(let path, .file(let error)): return "cannot develop \(path): \(error.reason)"
        case .unreadableRaw(let path, let error): return "cannot develop \(path): \(error)"
        case .developmentFormatUnsupported(let format): return "RAW data cannot be developed into \(format); use jpeg, heic, tiff or uncompressed"
        case .file(let error): return error.description
        }
    }
}
