import COpenCVFaces
import Imaging
import Synchronization

/// YuNet, the CNN face detector of OpenCV's model zoo (MIT licence), run by OpenCV's dnn module:
/// finds more faces than the cascades, turned and small ones included, in less time, and gives
/// each face a confidence and five landmarks.
///
/// The model (`face_detection_yunet_2023mar.onnx`, 232 KB) is built into the library, so nothing
/// needs installing beside Debian's `libopencv-dnn`; another model file can be named instead.
/// The network is used by one thread at a time (a lock serialises calls); OpenCV is told to use
/// the calling thread only, so detection never takes more than one core from the stream.
public final class YuNetFaceDetector: FaceDetecting {
    /// Where the network comes from.
    public enum Model: Sendable, Hashable {
        /// The 2023 model built into the library.
        case builtIn
        /// A YuNet ONNX model file with the 2023 model's outputs (`cls_8` … `kps_32`).
        case file(path: String)
    }

    /// The network.
    public let model: Model
    /// The least confidence (0...1) a face needs to be reported.
    public let minimumConfidence: Double
    /// Of two boxes overlapping more than this (intersection over union), the less confident is
    /// dropped: one face, one box.
    public let maximumOverlap: Double

    private let handle: Mutex<UncheckedPointer>

    /// Loads `model`; throws ``FaceDetectionError/modelUnreadable(path:message:)`` when the file is
    /// missing, is not an ONNX model OpenCV can run, or lacks YuNet's outputs (the model is run
    /// once here, so a wrong one fails now rather than at the first picture). The least
    /// confidence, 0.6, lies between the faces of the test photos and scripted scenes (0.70 and
    /// more; the lowest are faces 27 pixels wide at the analysis size) and the one false face
    /// seen in them (0.56).
    public init(model: Model = .builtIn, minimumConfidence: Double = 0.6, maximumOverlap: Double = 0.3) throws(FaceDetectionError) {
        var message = [CChar](repeating: 0, count: 512)
        let created: OpaquePointer? = switch model {
        case .builtIn: pc_yunet_create_embedded(&message, message.count)
        case .file(let path): pc_yunet_create(path, &message, message.count)
        }
        guard let pointer = created else {
            throw .modelUnreadable(path: model.path, message: String(cMessage: message))
        }
        pc_faces_set_threads(1)
        handle = Mutex(UncheckedPointer(pointer: pointer))
        (self.model, self.minimumConfidence, self.maximumOverlap) = (model, minimumConfidence, maximumOverlap)
    }

    deinit {
        handle.withLock { pc_yunet_destroy($0.pointer) }
    }

    /// 640x480: YuNet's confidence falls below ``minimumConfidence`` for faces narrower than
    /// about 25 pixels, which a person at a sixth of a 3:4 or 1:1 crop's width is at 320x240;
    /// at 640x480 YuNet still costs less per analysis than the Haar cascade at 320x240
    /// (the benchmark's face rows).
    public var analysisSize: PixelSize { PixelSize(width: 640, height: 480) }

    /// `YuNet`, or `YuNet (path)` for a model file.
    public var detectorName: String {
        switch model {
        case .builtIn: "YuNet"
        case .file(let path): "YuNet (\(path))"
        }
    }

    /// The faces in `picture`, most confident first, each with its confidence and landmarks,
    /// normalised to the picture.
    ///
    /// Each box is the square as wide as YuNet's, at its top: YuNet draws faces about 1.25 times
    /// as tall as wide, down past the chin, where the cascades draw them square from the brow or
    /// hairline to the chin. One shape for either detector keeps what is built on face boxes (the
    /// tracker's overlaps, the framing's head-and-shoulders room, the scripted scenes' faces)
    /// the same whichever runs.
    public func detectFaces(in picture: LumaPicture) throws(FaceDetectionError) -> [DetectedFace] {
        let found = try picture.detections(empty: pc_face_detection(), messageCapacity: 512) {
            luma, width, height, stride, results, capacity, message, messageCapacity in
            handle.withLock { handle in
                pc_yunet_detect(handle.pointer, luma, width, height, stride, Float(minimumConfidence), Float(maximumOverlap),
                                results, capacity, message, messageCapacity)
            }
        }
        let (width, height) = (Double(picture.size.width), Double(picture.size.height))
        func normalised(_ point: pc_point) -> NormalizedPoint {
            NormalizedPoint(x: Double(point.x) / width, y: Double(point.y) / height)
        }
        return found.map { face in
            let points = face.landmarks
            return DetectedFace(
                bounds: NormalizedRect(x: Double(face.x) / width, y: Double(face.y) / height,
                                       width: Double(face.width) / width, height: Double(face.width) / height),
                confidence: Double(face.score),
                landmarks: FaceLandmarks(rightEye: normalised(points.0), leftEye: normalised(points.1), noseTip: normalised(points.2),
                                         rightMouthCorner: normalised(points.3), leftMouthCorner: normalised(points.4)))
        }
    }
}

extension YuNetFaceDetector.Model {
    /// The file's path, or `built-in face_detection_yunet_2023mar.onnx`.
    public var path: String {
        switch self {
        case .builtIn: "built-in face_detection_yunet_2023mar.onnx"
        case .file(let path): path
        }
    }
}
