/// The photos of one request as ``PhotoOutput/capturePhotos(with:)`` delivers them: each photo
/// in Apple's order, then the end, or the request's ``PhotoCaptureError``.
///
/// `for try await` over it throws ``PhotoCaptureError`` itself, so a caller's `catch` needs no
/// cast:
///
/// ```swift
/// do {
///     for try await photo in try output.capturePhotos(with: settings) {
///         try photo.write(to: "photo-\(photo.sequenceCount).jpg")
///     }
/// } catch {
///     print("request \(error.uniqueID ?? 0): \(error.code)")  // error is a PhotoCaptureError
/// }
/// ```
public struct PhotoCaptureStream: AsyncSequence, Sendable {
    /// A photo of the request.
    public typealias Element = CapturePhoto
    /// Why the request failed.
    public typealias Failure = PhotoCaptureError

    let results: AsyncStream<Result<CapturePhoto, PhotoCaptureError>>

    /// An iterator over the request's photos.
    public func makeAsyncIterator() -> Iterator { Iterator(base: results.makeAsyncIterator()) }

    /// Hands out the request's photos, then nil; or throws the request's error, then returns nil.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Result<CapturePhoto, PhotoCaptureError>>.Iterator

        /// The next photo; nil after the last one or after the error.
        public mutating func next() async throws(PhotoCaptureError) -> CapturePhoto? {
            try await base.next()?.get()
        }

        /// The next photo, on `actor`; nil after the last one or after the error.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PhotoCaptureError) -> CapturePhoto? {
            try await base.next(isolation: actor)?.get()
        }
    }
}
