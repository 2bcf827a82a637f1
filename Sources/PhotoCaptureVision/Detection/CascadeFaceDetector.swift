import COpenCVFaces
import Imaging
import Synchronization

/// OpenCV's cascade face detector, with the frontal-face models Debian's `opencv-data` ships.
///
/// The handle is used by one thread at a time (a lock serialises calls); OpenCV is told to use
/// the calling thread only, so detection never takes more than one core from the stream.
public final class CascadeFaceDetector: FaceDetecting {
    /// A cascade model file.
    public struct Model: Sendable, Hashable {
        /// The XML file's path.
        public let path: String
        /// Creates a model from an OpenCV cascade XML file.
        public init(path: String) { self.path = path }

        /// The LBP frontal-face cascade: about 3x faster than Haar, misses more small faces.
        public static let lbpFrontalFace = Model(path: "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml")
        /// The Haar `alt2` frontal-face cascade: slower, more reliable.
        public static let haarFrontalFace = Model(path: "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml")
    }

    /// The cascade.
    public let model: Model
    /// The smallest face looked for, in pixels of the analysed picture.
    public let minimumFaceSize: Int
    /// Overlapping hits a face needs; more means fewer false faces.
    public let minimumNeighbours: Int
    /// Step between the scales searched: 1.05 keeps box edges within 15% of small faces (1.1
    /// is twice as fast and its boxes jump in 10% steps).
    public let scaleFactor: Double

    private let handle: Mutex<UncheckedPointer>

    /// Loads `model`; throws ``FaceDetectionError/modelUnreadable(path:message:)`` when it cannot.
    public init(model: Model = .haarFrontalFace, minimumFaceSize: Int = 20, minimumNeighbours: Int = 5,
                scaleFactor: Double = 1.05) throws(FaceDetectionError) {
        var message = [CChar](repeating: 0, count: 256)
        guard let pointer = pc_faces_create(model.path, &message, message.count) else {
            throw .modelUnreadable(path: model.path, message: String(cMessage: message))
        }
        pc_faces_set_threads(1)
        handle = Mutex(UncheckedPointer(pointer: pointer))
        (self.model, self.minimumFaceSize, self.minimumNeighbours, self.scaleFactor) = (model, minimumFaceSize, minimumNeighbours, scaleFactor)
    }

    deinit {
        handle.withLock { pc_faces_destroy($0.pointer) }
    }

    /// `Haar alt2` or `LBP` for the built-in models, the file's path otherwise.
    public var detectorName: String {
        switch model {
        case .haarFrontalFace: "Haar alt2"
        case .lbpFrontalFace: "LBP"
        default: model.path
        }
    }

    /// The faces in `picture`, normalised to it; cascades give no confidence and no landmarks.
    public func detectFaces(in picture: LumaPicture) throws(FaceDetectionError) -> [DetectedFace] {
        let found = try picture.detections(empty: pc_face_rect(), messageCapacity: 256) {
            luma, width, height, stride, results, capacity, message, messageCapacity in
            handle.withLock { handle in
                pc_faces_detect(handle.pointer, luma, width, height, stride, scaleFactor, Int32(minimumNeighbours),
                                Int32(minimumFaceSize), results, capacity, message, messageCapacity)
            }
        }
        return found.map { face in
            DetectedFace(bounds: NormalizedRect(PixelRect(x: Int(face.x), y: Int(face.y),
                                                          size: PixelSize(width: Int(face.width), height: Int(face.height))),
                                                in: picture.size))
        }
    }
}

