/// Receives what a ``MetadataOutput`` finds, like Apple's
/// `AVCaptureMetadataOutputObjectsDelegate`; set it with
/// ``MetadataOutput/setMetadataObjectsDelegate(_:)``.
///
/// Calls come one at a time on the output's analysis thread, once per analysed frame (with no
/// objects when no face is in view, so a delegate sees faces leave); time spent here delays the
/// next analysis, never the camera or a photo. The delegate is `Sendable`: keep what it records
/// behind a lock (`Mutex`) or hand it to an actor.
///
/// ```swift
/// final class FaceCounter: MetadataOutputObjectsDelegate {
///     let counts = Mutex<[Int]>([])
///     func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [MetadataFaceObject],
///                         from frame: FaceMetadata) {
///         counts.withLock { $0.append(metadataObjects.count) }
///     }
/// }
/// ```
public protocol MetadataOutputObjectsDelegate: AnyObject, Sendable {
    /// The objects of one analysed frame, of the output's ``MetadataOutput/metadataObjectTypes``;
    /// `frame` is that frame (its timestamp and sequence number, and the same objects).
    func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [MetadataFaceObject], from frame: FaceMetadata)
}
