import Foundation
import PhotoCaptureVision
import Synchronization
import Testing

/// ``MetadataOutput``'s Apple shape: the object types and the delegate, beside the async stream.
@Suite struct MetadataOutputTests {
    /// Reports one face in every picture, at a fixed place, with landmarks.
    struct OneFace: FaceDetecting {
        static let landmarks = FaceLandmarks(
            rightEye: NormalizedPoint(x: 0.45, y: 0.38), leftEye: NormalizedPoint(x: 0.55, y: 0.38),
            noseTip: NormalizedPoint(x: 0.5, y: 0.43), rightMouthCorner: NormalizedPoint(x: 0.46, y: 0.48),
            leftMouthCorner: NormalizedPoint(x: 0.54, y: 0.48))
        func detectFaces(in picture: LumaPicture) throws(FaceDetectionError) -> [DetectedFace] {
            [DetectedFace(bounds: NormalizedRect(x: 0.4, y: 0.3, width: 0.2, height: 0.25), confidence: 0.9, landmarks: Self.landmarks)]
        }
    }

    final class Recorder: MetadataOutputObjectsDelegate {
        let calls = Mutex<[(objects: [MetadataFaceObject], frame: FaceMetadata)]>([])
        func metadataOutput(_ output: MetadataOutput, didOutput metadataObjects: [MetadataFaceObject], from frame: FaceMetadata) {
            calls.withLock { $0.append((metadataObjects, frame)) }
        }
    }

    static func session() throws -> CaptureSession {
        let session = CaptureSession()
        try session.addInput(CaptureDevice.synthetic(.init(maximumSize: PixelSize(width: 320, height: 240))))
        return session
    }

    @Test("faces are the available and the default type; the delegate gets every frame the stream gets")
    func delegateAndStream() async throws {
        let output = MetadataOutput(detector: OneFace())
        #expect(output.availableMetadataObjectTypes == [.face] && output.metadataObjectTypes == [.face])
        #expect(MetadataObjectType.face.rawValue == "face")
        let recorder = Recorder()
        output.setMetadataObjectsDelegate(recorder)
        #expect(output.metadataObjectsDelegate === recorder)
        let session = try Self.session()
        try session.addOutput(output)
        let stream = output.faces()
        try await session.startRunning()
        let stop = Task {
            try await Task.sleep(for: .seconds(1))
            session.removeOutput(output)
        }
        var streamed: [FaceMetadata] = []
        for await frame in stream { streamed.append(frame) }
        try await stop.value
        await session.stopRunning()
        let calls = recorder.calls.withLock { $0 }
        #expect(!calls.isEmpty && calls.count == output.analysedFrameCount, "\(calls.count) calls, \(output.analysedFrameCount) analysed")
        for call in calls { #expect(call.objects == call.frame.faces) }
        // The stream keeps the newest four when its reader is slow: every streamed frame was delegated, in order.
        let delegated = calls.map(\.frame)
        #expect(streamed.allSatisfy(delegated.contains), "\(streamed.count) streamed")
        #expect(streamed.map(\.frameSequence) == streamed.map(\.frameSequence).sorted())
        // A face needs a few frames to be confirmed; then it is reported with a stable ID.
        let faces = calls.flatMap(\.objects)
        #expect(!faces.isEmpty && Set(faces.map(\.detectedObjectID)).count == 1, "\(faces.count) faces")
        // The detector's landmarks travel with the face; the output names the detector.
        #expect(faces.allSatisfy { $0.landmarks == OneFace.landmarks })
        #expect(output.faceDetectorName == "OneFace")
    }

    @Test("no object types: no analysis, no delegate calls, while the output stays in the session")
    func noTypes() async throws {
        let output = MetadataOutput(detector: OneFace())
        output.metadataObjectTypes = []
        let recorder = Recorder()
        output.setMetadataObjectsDelegate(recorder)
        let session = try Self.session()
        try session.addOutput(output)
        try await session.startRunning()
        try await Task.sleep(for: .milliseconds(600))
        #expect(output.analysedFrameCount == 0 && recorder.calls.withLock { $0.isEmpty })
        // Asked for faces again, it analyses again.
        output.metadataObjectTypes = output.availableMetadataObjectTypes
        let deadline = ContinuousClock.now + .seconds(5)
        while output.analysedFrameCount == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        session.removeOutput(output)
        await session.stopRunning()
        #expect(output.analysedFrameCount > 0 && !recorder.calls.withLock { $0.isEmpty })
        // Nil stops the calls.
        output.setMetadataObjectsDelegate(nil)
        #expect(output.metadataObjectsDelegate == nil)
    }
}
