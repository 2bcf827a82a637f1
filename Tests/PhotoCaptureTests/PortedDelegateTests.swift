import Foundation
import PhotoCapture
import Synchronization
import Testing
import TestSupport

/// A delegate as an iOS app writes one for `AVCapturePhotoOutput`: a final class, synchronous
/// methods, `Error?` — only the type names changed.
final class PortedPhotoCaptureProcessor: PhotoCaptureDelegate {
    let calls = Mutex<[String]>([])

    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: Error?) {
        if let error {
            let id = (error as? PhotoCaptureError)?.uniqueID ?? 0
            calls.withLock { $0.append("didFinishProcessingPhoto error \(id)") }
            return
        }
        calls.withLock { $0.append("didFinishProcessingPhoto \(photo.resolvedSettings.uniqueID)") }
    }

    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings, error: Error?) {
        let id = resolvedSettings.uniqueID
        calls.withLock { $0.append(error == nil ? "didFinishCapture \(id)" : "didFinishCapture error \(id)") }
    }

    /// The calls once the capture ended, or after 10 s if it never does.
    func callsAfterCapture() async throws -> [String] {
        for _ in 0..<400 where !calls.withLock({ $0.contains { $0.hasPrefix("didFinishCapture") } }) {
            try await Task.sleep(for: .milliseconds(25))
        }
        return calls.withLock { $0 }
    }
}

/// A delegate ported from iOS receives AVFoundation's two callbacks, in order, for a photo and
/// for a failure.
@Suite struct PortedDelegateTests {
    /// A ported delegate's calls for a capture of `settings` on `output`: the session stopped
    /// once the capture ended, or with `stoppingFirst` at once, before the frame comes.
    private static func calls(capturing settings: PhotoSettings, session: CaptureSession, output: PhotoOutput,
                              stoppingFirst: Bool = false) async throws -> [String] {
        let delegate = PortedPhotoCaptureProcessor()
        try output.capturePhoto(with: settings, delegate: delegate)
        if stoppingFirst { await session.stopRunning() }
        let calls = try await delegate.callsAfterCapture()
        if !stoppingFirst { await session.stopRunning() }
        return calls
    }

    @Test func aPortedDelegateReceivesItsPhotoThenTheEnd() async throws {
        let (session, output) = try await SettingsResolutionTests.output()
        let settings = PhotoSettings(format: .jpeg)
        let calls = try await Self.calls(capturing: settings, session: session, output: output)
        let id = settings.uniqueID
        #expect(calls == ["didFinishProcessingPhoto \(id)", "didFinishCapture \(id)"])
    }

    /// A photo whose frame cannot be decoded: the error comes where iOS code looks for it first.
    @Test func aPortedDelegateReceivesAFailedPhotoThenTheEnd() async throws {
        let (folder, session, output) = try await DelegateTests.undecodableFrameOutput()
        defer { withExtendedLifetime(folder) {} }  // the frame file lives as long as the test
        let settings = PhotoSettings(format: .uncompressed)
        let calls = try await Self.calls(capturing: settings, session: session, output: output)
        let id = settings.uniqueID
        #expect(calls == ["didFinishProcessingPhoto error \(id)", "didFinishCapture error \(id)"])
    }

    /// A capture that gets no frame (the session stopped first) still reports its photo as failed
    /// before the end, as AVFoundation does, so iOS code that waits in the photo callback ends.
    @Test func aPortedDelegateHearsOfAPhotoThatWasNeverCaptured() async throws {
        let (session, output) = try await SettingsResolutionTests.output(framesPerSecond: 2)
        let settings = PhotoSettings()
        let calls = try await Self.calls(capturing: settings, session: session, output: output, stoppingFirst: true)
        let id = settings.uniqueID
        #expect(calls == ["didFinishProcessingPhoto error \(id)", "didFinishCapture error \(id)"])
    }
}
