/// Receives the progress of one photo request, in this order:
///
/// 1. ``photoOutput(_:willBeginCaptureFor:)``
/// 2. ``photoOutput(_:willCapturePhotoFor:)``
/// 3. ``photoOutput(_:didCapturePhotoFor:)``
/// 4. ``photoOutput(_:didFinishProcessingPhoto:error:)``, once per photo made from a captured
///    frame: the photo, or the error that stopped it
/// 5. ``photoOutput(_:didFinishCaptureFor:error:)``, exactly once, with the error if any
///
/// Modelled on `AVCapturePhotoCaptureDelegate`. Calls come from a background task, one at a
/// time: each is awaited before the next is made. The requirements are `async`, so an `actor` or
/// a `@MainActor` class conforms with ordinary methods and stores what it receives in `var`s,
/// the AVFoundation way (<doc:CapturingAPhoto> shows one that waits for its photo). Every method
/// has an empty default.
public protocol PhotoCaptureDelegate: AnyObject, Sendable {
    /// The request was accepted and capture begins.
    func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings) async
    /// The exposure is about to start (the shutter moment).
    func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) async
    /// The frame has been captured; processing starts.
    func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) async
    /// A photo is ready (`photo` set, `error` nil), or making it failed (`photo` nil, `error`
    /// carrying the request's uniqueID): one call for each photo of a captured frame — a
    /// bracket member whose encoding failed, a RAW + processed request whose development failed.
    ///
    /// Unlike `AVCapturePhoto`, a ``CapturePhoto`` always holds its pixels, so a failed photo
    /// has none. A failure is also reported by ``photoOutput(_:didFinishCaptureFor:error:)``.
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto?, error: PhotoCaptureError?) async
    /// The request is over: every photo was delivered (`error` nil) or it failed with `error`,
    /// which carries the request's uniqueID.
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings,
                     error: PhotoCaptureError?) async
    /// A photo is ready.
    @available(*, deprecated, renamed: "photoOutput(_:didFinishProcessingPhoto:error:)")
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto) async
}

extension PhotoCaptureDelegate {
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings) async {}
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) async {}
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) async {}
    /// Passes a photo on to ``photoOutput(_:didFinishProcessingPhoto:)``, so that a delegate
    /// written before the error was added still receives its photos.
    public func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto?,
                            error: PhotoCaptureError?) async {
        if let photo { await (DeprecatedPhotoDelivery() as any PhotoDelivery).deliver(photo, from: output, to: self) }
    }
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings,
                            error: PhotoCaptureError?) async {}
    /// Does nothing.
    @available(*, deprecated, renamed: "photoOutput(_:didFinishProcessingPhoto:error:)")
    public func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto) async {}
}

/// Calls the deprecated requirement from the default above without a deprecation warning: a
/// deprecated method may call deprecated API, and this one is reached through a protocol.
private protocol PhotoDelivery {
    func deliver(_ photo: CapturePhoto, from output: PhotoOutput, to delegate: any PhotoCaptureDelegate) async
}

private struct DeprecatedPhotoDelivery: PhotoDelivery {
    @available(*, deprecated)
    func deliver(_ photo: CapturePhoto, from output: PhotoOutput, to delegate: any PhotoCaptureDelegate) async {
        await delegate.photoOutput(output, didFinishProcessingPhoto: photo)
    }
}
