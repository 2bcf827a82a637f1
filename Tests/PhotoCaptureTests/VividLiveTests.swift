import Foundation
import PhotoCapture
import Synchronization
import Testing
import TestSupport

/// The live session on vivid: zero shutter lag against the driver's own timestamps, and a video
/// data output and the scene monitor that end with the camera's disconnect. Off outside the VM.
@Suite(.serialized, .vivid)
struct VividLiveTests {
    let path = Vivid.path

    init() throws { try Vivid.reload() }

    final class Recorder: VideoDataOutputDelegate {
        let frames = Mutex(0)
        let failures = Mutex<[PhotoCaptureError]>([])
        func videoDataOutput(_ output: VideoDataOutput, didOutput frame: VideoFrame) { frames.withLock { $0 += 1 } }
        func videoDataOutput(_ output: VideoDataOutput, didFailWith error: PhotoCaptureError) {
            failures.withLock { $0.append(error) }
        }
    }

    @Test func zeroShutterLagOnTheDriversFrames() async throws {
        let device = try CaptureDevice.v4l2(path: path)
        let (session, output) = try await runningSession(device)
        var settings = PhotoSettings(format: .uncompressed)
        settings.maxPhotoDimensions = PixelSize(width: 640, height: 360)
        try await output.setPreparedPhotoSettingsArray([settings])
        var selections: [FrameSelection] = []
        for _ in 0..<6 {
            var request = PhotoSettings(format: .uncompressed)
            request.maxPhotoDimensions = PixelSize(width: 640, height: 360)
            let photo = try await output.capturePhoto(with: request)
            selections.append(photo.frameDelivery.frameSelection)
            // The frame's exposure began before the request (negative offset), by less than the
            // time since the frame before it.
            if photo.frameDelivery.frameSelection == .zeroShutterLag {
                #expect(photo.frameDelivery.exposureStartOffsetNanoseconds <= 0)
            }
            try await Task.sleep(for: .milliseconds(150))
        }
        await session.stopRunning()
        #expect(selections.filter { $0 == .zeroShutterLag }.count >= 5, "\(selections)")
    }

    @Test func consumersEndWithTheDisconnect() async throws {
        let device = try CaptureDevice.v4l2(path: path)
        let (session, _) = try await runningSession(device)
        let video = VideoDataOutput()
        video.maximumDimensions = PixelSize(width: 320, height: 240)
        let recorder = Recorder()
        video.setSampleBufferDelegate(recorder)
        try session.addOutput(video)
        let monitor = device.sceneMonitor
        let statuses = monitor.lightingUpdates()
        var frames = video.frames().makeAsyncIterator()
        #expect(await frames.next() != nil)
        try Vivid.set(["disconnect": "1"])
        let started = ContinuousClock.now
        while await frames.next() != nil {}
        var last: SceneLighting?
        for await status in statuses { last = status }
        #expect(ContinuousClock.now - started < .seconds(10), "the consumers must end promptly")
        #expect(recorder.failures.withLock { $0 } == [PhotoCaptureError(.deviceDisconnected(device: path))])
        #expect(recorder.frames.withLock { $0 } >= 1)
        #expect(last == .unknown)
        await session.stopRunning()
    }
}
