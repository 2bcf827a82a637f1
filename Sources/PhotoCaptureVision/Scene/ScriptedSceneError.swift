import PhotoCapture

/// Why a ``ScriptedPeopleScene`` could not be made from a portrait.
public enum ScriptedSceneError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The face detector failed (its model could not be loaded, say).
    case detectionFailed(FaceDetectionError)
    /// The detector found no face in the portrait (of this size); pass the face's box instead.
    case noFace(portraitSize: PixelSize)
    /// The detector found several faces (these boxes, in portrait pixels); crop the portrait to
    /// one person, or pass the face's box.
    case severalFaces([PixelRect])

    /// A sentence for people.
    public var description: String {
        switch self {
        case .detectionFailed(let error):
            "cannot find the face in the portrait: \(error)"
        case .noFace(let size):
            "the face detector found no face in the \(size) portrait; give the face's box (faceInPortrait:) instead"
        case .severalFaces(let boxes):
            "the face detector found \(boxes.count) faces in the portrait (\(boxes.map(\.description).joined(separator: ", "))); "
                + "crop it to one person or give the face's box (faceInPortrait:)"
        }
    }
}
