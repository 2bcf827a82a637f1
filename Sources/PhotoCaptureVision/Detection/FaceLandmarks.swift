/// Five points of a face, as YuNet finds them: the eyes, the nose tip and the mouth corners,
/// normalised like the face's bounds. Right and left are the person's: in an unmirrored picture
/// the right eye is the one nearer the picture's left edge.
public struct FaceLandmarks: Hashable, Sendable {
    /// The centre of the person's right eye.
    public var rightEye: NormalizedPoint
    /// The centre of the person's left eye.
    public var leftEye: NormalizedPoint
    /// The tip of the nose.
    public var noseTip: NormalizedPoint
    /// The right corner of the mouth (the person's right).
    public var rightMouthCorner: NormalizedPoint
    /// The left corner of the mouth (the person's left).
    public var leftMouthCorner: NormalizedPoint

    /// Landmarks from their five points.
    public init(rightEye: NormalizedPoint, leftEye: NormalizedPoint, noseTip: NormalizedPoint,
                rightMouthCorner: NormalizedPoint, leftMouthCorner: NormalizedPoint) {
        (self.rightEye, self.leftEye, self.noseTip) = (rightEye, leftEye, noseTip)
        (self.rightMouthCorner, self.leftMouthCorner) = (rightMouthCorner, leftMouthCorner)
    }

    /// The five points: right eye, left eye, nose tip, right and left mouth corner.
    public var all: [NormalizedPoint] { [rightEye, leftEye, noseTip, rightMouthCorner, leftMouthCorner] }
}
