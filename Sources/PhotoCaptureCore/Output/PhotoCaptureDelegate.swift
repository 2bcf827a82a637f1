/// Receives the progress of one photo request, in this order:
///
/// 1. ``photoOutput(_:willBeginCaptureFor:)``
/// 2. ``photoOutput(_:willCapturePhotoFor:)``
/// 3. ``photoOutput(_:didCapturePhotoFor:)``
/// 4. ``photoOutput(_:didFinishProcessingPhoto:error:)``, once for each photo the request
///    expects (``ResolvedPhotoSettings/expectedPhotoCount``): the photo, or the error that
///    stopped it
/// 5. ``photoOutput(_:didFinishCaptureFor:error:)``, exactly once, with the error if any
///
/// Modelled on `AVCapturePhotoCaptureDelegate`, with its signatures: a delegate ported from iOS
/// — a class with synchronous methods taking `error: Error?` — implements these requirements
/// unchanged. The two callbacks without which a photo or the end of a request would go
/// unnoticed, ``photoOutput(_:didFinishProcessingPhoto:error:)`` and
/// ``photoOutput(_:didFinishCaptureFor:error:)``, have no default: a delegate that lacks one,
/// or spells it with other types, does not compile. The other three do nothing by default.
///
/// Every error passed is a ``PhotoCaptureError`` carrying the request's uniqueID, so
/// `error as? PhotoCaptureError` always succeeds; the parameters are `(any Error)?` because
/// AVFoundation's are, and a method is this protocol's only with the same types.
///
/// Calls come from a background task, one at a time: each is awaited before the next is made.
/// The requirements are `async`, so an `actor` or a `@MainActor` class conforms with ordinary
/// methods and stores what it receives in `var`s, the AVFoundation way (<doc:CapturingAPhoto>
/// shows one that waits for its photo).
public protocol PhotoCaptureDelegate: AnyObject, Sendable {
    /// The request was accepted and capture begins.
    func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings) async
    /// The exposure is about to start (the shutter moment).
    func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) async
    /// The frame has been captured; processing starts.
    func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) async
    /// A photo is ready (`error` nil), or could not be made (`error` set): one call for each
    /// photo the request expects — a RAW + processed request has two, a bracket one per member
    /// (two each with RAW + processed). Required.
    ///
    /// As with `AVCapturePhoto`, a failed photo still names its place: its
    /// ``CapturePhoto/resolvedSettings``, ``CapturePhoto/sequenceCount``,
    /// ``CapturePhoto/photoCount``, ``CapturePhoto/isRawPhoto`` and
    /// ``CapturePhoto/bracketSettings``. It has no picture: its ``CapturePhoto/pixelBuffer`` is
    /// empty (size zero, no preview) and ``CapturePhoto/fileDataRepresentation()`` nil. `error`
    /// is a ``PhotoCaptureError``, and the request ends with it too (the first, if several).
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: (any Error)?) async
    /// The request is over: every photo was delivered (`error` nil) or it failed with `error`, a
    /// ``PhotoCaptureError`` carrying the request's uniqueID. Required: it comes exactly once
    /// for every accepted request, so a task waiting for the request's end can rely on it.
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings,
                     error: (any Error)?) async
}

extension PhotoCaptureDelegate {
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings) async {}
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) async {}
    /// Does nothing.
    public func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) async {}
}
