extension CaptureDevice {
    /// Which way a camera faces, as `AVCaptureDevice.Position` says it.
    public enum Position: String, Sendable {
        /// Not known, or neither way: an external camera (as Apple's are), a camera whose driver
        /// does not say, the synthetic and frame-file cameras.
        case unspecified
        /// Away from the user.
        case back
        /// Towards the user.
        case front
    }

    /// Which way the camera faces (`AVCaptureDevice.position`): from the driver's
    /// V4L2_CID_CAMERA_ORIENTATION, whose finer answer (external, or not reported) is
    /// ``V4L2Details/location``.
    public var position: Position {
        switch location {
        case .front: .front
        case .back: .back
        case .external, nil: .unspecified
        }
    }
}
