import Foundation
import PhotoCapture
import Synchronization
import Testing
import TestSupport

/// Records delegate calls in order.
final class RecordingDelegate: PhotoCaptureDelegate {
    let events = Mutex<[String]>([])
    let photos = Mutex<[CapturePhoto]>([])
    /// The errors of photos that could not be made.
    let photoErrors = Mutex<[PhotoCaptureError]>([])
    /// The photos delivered with those errors.
    let failedPhotos = Mutex<[CapturePhoto]>([])
    let finished = Mutex<[PhotoCaptureError?]>([])
    private let done: AsyncStream<Void>.Continuation
    let completion: AsyncStream<Void>

    init() {
        (completion, done) = AsyncStream<Void>.makeStream()
    }

    private func record(_ event: String, _ settings: ResolvedPhotoSettings) {
        events.withLock { $0.append("\(event) \(settings.uniqueID)") }
    }

    func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings) {
        record("willBegin", resolvedSettings)
    }
    func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {
        record("willCapture", resolvedSettings)
    }
    func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {
        record("didCapture", resolvedSettings)
    }
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: (any Error)?) {
        events.withLock { $0.append("didFinishProcessing \(photo.resolvedSettings.uniqueID)") }
        if let error {
            // Every error passed is a PhotoCaptureError; anything else fails the test.
            #expect(error is PhotoCaptureError, "\(error)")
            photoErrors.withLock { $0.append(error as? PhotoCaptureError ?? PhotoCaptureError(.captureEndedWithoutPhoto)) }
            failedPhotos.withLock { $0.append(photo) }
        } else {
            photos.withLock { $0.append(photo) }
        }
    }
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings,
                     error: (any Error)?) {
        record("didFinishCapture", resolvedSettings)
        #expect(error == nil || error is PhotoCaptureError, "\(String(describing: error))")
        finished.withLock { $0.append(error.map { $0 as? PhotoCaptureError ?? PhotoCaptureError(.captureEndedWithoutPhoto) }) }
        done.yield()
    }

    /// Waits for `count` didFinishCapture calls, then a little longer to catch extra ones.
    func waitForFinishes(_ count: Int) async throws {
        var seen = 0
        for await _ in completion {
            seen += 1
            if seen == count { break }
        }
        try await Task.sleep(for: .milliseconds(200))
    }
}

@Suite struct DelegateTests {
    @Test func callbacksArriveInOrderWithOneFinish() async throws {
        let (session, output) = try await SettingsResolutionTests.output()
        let delegate = RecordingDelegate()
        var settings = PhotoSettings(format: .jpeg)
        settings.previewDimensions = PixelSize(width: 160, height: 120)
        try output.capturePhoto(with: settings, delegate: delegate)
        try await delegate.waitForFinishes(1)
        let id = settings.uniqueID
        #expect(delegate.events.withLock { $0 } == [
            "willBegin \(id)", "willCapture \(id)", "didCapture \(id)", "didFinishProcessing \(id)", "didFinishCapture \(id)",
        ])
        #expect(delegate.finished.withLock { $0.count } == 1)
        #expect(delegate.finished.withLock { $0[0] } == nil)
        let photo = try #require(delegate.photos.withLock { $0.first })
        #expect(photo.resolvedSettings.uniqueID == id)
        #expect(photo.sequenceCount == 1 && photo.photoCount == 1)
        #expect(photo.previewPixelBuffer?.size == PixelSize(width: 160, height: 120))
        #expect(photo.fileDataRepresentation() != nil)
        #expect(photo.metadata["Orientation"] != nil)
        await session.stopRunning()
    }

    /// Several requests in flight: each gets its own complete, ordered sequence of calls.
    @Test func concurrentRequestsEachFinishOnce() async throws {
        let (session, output) = try await SettingsResolutionTests.output()
        let delegate = RecordingDelegate()
        let requests = (0..<4).map { _ in PhotoSettings(format: .uncompressed) }
        for settings in requests { try output.capturePhoto(with: settings, delegate: delegate) }
        try await delegate.waitForFinishes(requests.count)
        let events = delegate.events.withLock { $0 }
        for settings in requests {
            let mine = events.filter { $0.hasSuffix(" \(settings.uniqueID)") }.map { $0.split(separator: " ")[0] }
            #expect(mine == ["willBegin", "willCapture", "didCapture", "didFinishProcessing", "didFinishCapture"])
        }
        #expect(delegate.finished.withLock { $0.count } == requests.count)
        await session.stopRunning()
    }

    /// A capture that fails after acceptance ends with exactly one didFinishCapture carrying the
    /// error and the uniqueID, and no photo.
    @Test func aFailedCaptureFinishesOnceWithItsID() async throws {
        // Two frames a second: the request is still waiting for its frame when the camera stops.
        let (session, output) = try await SettingsResolutionTests.output(framesPerSecond: 2)
        let delegate = RecordingDelegate()
        let settings = PhotoSettings()
        try output.capturePhoto(with: settings, delegate: delegate)
        // Stopping the camera before the frame arrives fails the pending request.
        await session.stopRunning()
        try await delegate.waitForFinishes(1)
        let errors = delegate.finished.withLock { $0 }
        #expect(errors.count == 1)
        let error = try #require(errors.first ?? nil)
        #expect(error.uniqueID == settings.uniqueID)
        #expect(error.code == .sessionNotRunning)
        #expect(delegate.photos.withLock { $0.isEmpty })
        #expect(delegate.events.withLock { $0.last } == "didFinishCapture \(settings.uniqueID)")
    }

    @Test func theAsyncFormYieldsThePhoto() async throws {
        let (session, output) = try await SettingsResolutionTests.output()
        let settings = PhotoSettings(format: .uncompressed)
        var photos: [CapturePhoto] = []
        for try await photo in try output.capturePhotos(with: settings) { photos.append(photo) }
        #expect(photos.count == 1)
        #expect(photos[0].resolvedSettings.uniqueID == settings.uniqueID)
        #expect(photos[0].fileDataRepresentation() == nil)
        #expect(photos[0].pixelBuffer.size == PixelSize(width: 1000, height: 750))
        await session.stopRunning()
    }

    /// A photo that cannot be made from its captured frame comes as its error through
    /// didFinishProcessingPhoto, and the request ends with the same error.
    @Test func aPhotoThatCannotBeMadeIsDeliveredAsItsError() async throws {
        let (folder, session, output) = try await Self.undecodableFrameOutput()
        defer { withExtendedLifetime(folder) {} }  // the frame file lives as long as the test
        let delegate = RecordingDelegate()
        let settings = PhotoSettings(format: .uncompressed)
        try output.capturePhoto(with: settings, delegate: delegate)
        try await delegate.waitForFinishes(1)
        await session.stopRunning()
        let id = settings.uniqueID
        #expect(delegate.events.withLock { $0 } == [
            "willBegin \(id)", "willCapture \(id)", "didCapture \(id)", "didFinishProcessing \(id)", "didFinishCapture \(id)",
        ])
        #expect(delegate.photos.withLock { $0.isEmpty })
        let error = try #require(delegate.photoErrors.withLock { $0.first })
        #expect(error.uniqueID == id)
        #expect(delegate.photoErrors.withLock { $0.count } == 1)
        #expect(delegate.finished.withLock { $0 } == [error])
        // The failed photo names its place and has no picture, as an AVCapturePhoto with an error.
        let failed = try #require(delegate.failedPhotos.withLock { $0.first })
        #expect(failed.resolvedSettings.uniqueID == id && failed.sequenceCount == 1 && failed.photoCount == 1)
        #expect(failed.pixelBuffer.size == PixelSize(width: 0, height: 0) && failed.previewPixelBuffer == nil)
        #expect(failed.fileDataRepresentation() == nil)
        #expect(throws: PhotoCaptureError.self) { try failed.pixelBuffer.jpegData() }
    }

    /// A running session on a frame file that starts like a JPEG and holds nothing else: its
    /// frames are captured, then cannot be decoded. The folder holds the file.
    static func undecodableFrameOutput() async throws -> (TemporaryDirectory, CaptureSession, PhotoOutput) {
        let folder = try TemporaryDirectory("broken-mjpeg")
        let file = try folder.write([0xFF, 0xD8, 0xFF, 0xDB] + [UInt8](repeating: 0, count: 256), named: "frame.mjpeg")
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(.frameFile(path: file, format: .mjpeg, size: PixelSize(width: 64, height: 48)))
        try session.addOutput(output)
        try await session.startRunning()
        return (folder, session, output)
    }

    /// An actor is a delegate: its calls run isolated, in order, and keep what they receive in vars.
    @Test func anActorDelegateKeepsThePhotoInAVar() async throws {
        let (session, output) = try await SettingsResolutionTests.output()
        let delegate = ActorDelegate()
        let settings = PhotoSettings(format: .jpeg)
        try output.capturePhoto(with: settings, delegate: delegate)
        for _ in 0..<400 where await !delegate.finished { try await Task.sleep(for: .milliseconds(25)) }
        await session.stopRunning()
        #expect(await delegate.events == ["willBegin", "willCapture", "didCapture", "didFinishProcessing", "didFinishCapture"])
        #expect(await delegate.photo?.resolvedSettings.uniqueID == settings.uniqueID)
    }

    /// A main-actor class is a delegate too, as an app's camera model usually is.
    @MainActor @Test func aMainActorDelegateKeepsThePhotoInAVar() async throws {
        let (session, output) = try await SettingsResolutionTests.output()
        let delegate = MainActorDelegate()
        let settings = PhotoSettings(format: .jpeg)
        try output.capturePhoto(with: settings, delegate: delegate)
        for _ in 0..<400 where !delegate.finished { try await Task.sleep(for: .milliseconds(25)) }
        await session.stopRunning()
        #expect(delegate.finished)
        #expect(delegate.photo?.resolvedSettings.uniqueID == settings.uniqueID)
    }

    /// The photo comes from a frame that started after the request, never an earlier one.
    @Test func thePhotoUsesAFrameStartedAfterTheRequest() async throws {
        let (session, output) = try await SettingsResolutionTests.output()
        let first = try await output.capturePhoto(with: PhotoSettings(format: .uncompressed))
        let second = try await output.capturePhoto(with: PhotoSettings(format: .uncompressed))
        #expect(second.frameSequence > first.frameSequence)
        #expect(second.timestamp > first.timestamp)
        await session.stopRunning()
    }
}

/// A delegate that is an actor, with plain stored properties.
private actor ActorDelegate: PhotoCaptureDelegate {
    var events: [String] = []
    var photo: CapturePhoto?
    var finished = false

    func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings) {
        events.append("willBegin")
    }
    func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {
        events.append("willCapture")
    }
    func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) {
        events.append("didCapture")
    }
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: (any Error)?) {
        events.append("didFinishProcessing")
        if error == nil { self.photo = photo }
    }
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings,
                     error: (any Error)?) {
        events.append("didFinishCapture")
        finished = true
    }
}

/// A delegate isolated to the main actor, with plain stored properties.
@MainActor private final class MainActorDelegate: PhotoCaptureDelegate {
    var photo: CapturePhoto?
    var finished = false

    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: (any Error)?) {
        if error == nil { self.photo = photo }
    }
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings,
                     error: (any Error)?) {
        finished = true
    }
}
