/// Receives the progress of one photo request, in this order:
///
/// 1. ``photoOutput(_:willBeginCaptureFor:)``
/// 2. ``photoOutput(_:willCapturePhotoFor:)``
/// 3. ``photoOutput(_:didCapturePhotoFor:)``
/// 4. ``photoOutput(_:didFinishProcessingPhoto:)``, once per photo
/// 5. ``photoOutput(_:didFinishCaptureFor:error:)``, exactly once, with the error if any
///
/// Modelled on `AVCapturePhotoCaptureDelegate`. Calls come from a background task; every method
/// has an empty default.
public protocol PhotoCaptureDelegate: AnyObject, Sendable {
    /// The request was accepted and capture begins.
    func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings)
    /// The exposure is about to start (the shutter moment).
    func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings)
    /// The frame has been captured; processing starts.
    func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings)
    /// A photo is ready.
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto)
    /// The request is over: every photo was delivered (`error` nil) or it failed with `error`,
    /// which carries the request's uniqueID.
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings,
                     error: PhotoCaptureError?)
}

extension PhotoCaptureDelegate {
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings) {}
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {}
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {}
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto) {}
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings,
                            error: PhotoCaptureError?) {}
}
