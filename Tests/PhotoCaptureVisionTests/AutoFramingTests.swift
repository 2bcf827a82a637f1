import PhotoCaptureVision
import Synchronization
import TestSupport
import Testing

/// Auto-framing on the live synthetic stream (640x480, 30 fps, the real detector): one person in
/// the centre, so the monitor closes in with 1:1 ×2 and the camera applies it itself, easing
/// the zoom over several frames rather than jumping.
@Suite struct AutoFramingTests {
    static let closeUp = Framing(aspectRatio: .ratio1x1, zoomFactor: 2)

    @Test func theCameraClosesInOnAPersonEasingTheZoom() async throws {
        let file = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let scene = ScriptedPeopleScene(parts: [.init(start: 0, people: [.init(x: 0.5, y: 0.44, faceWidth: 0.085)])],
                                        portrait: try ReferenceDecoder.imageMagickStored(file),
                                        faceInPortrait: PixelRect(x: 175, y: 70, size: PixelSize(width: 90, height: 90)))
        var configuration = CaptureDevice.SyntheticConfiguration(maximumSize: PixelSize(width: 640, height: 480), framesPerSecond: 30)
        configuration.script = scene.syntheticScript
        let device = CaptureDevice.synthetic(configuration)
        let session = CaptureSession()
        try session.addInput(device)
        // What photos see: the framed picture, frame by frame.
        let framed = VideoDataOutput()
        framed.maximumDimensions = PixelSize(width: 64, height: 64)
        try session.addOutput(framed)
        let fields = framed.frames()
        let monitor = device.smartFramingMonitor
        try monitor.setEnabledFramings([Framing(aspectRatio: .ratio4x3), Self.closeUp])
        try await session.startRunning()
        let applied = monitor.appliedFramings()
        try monitor.setAutoFramingEnabled(true)
        #expect(monitor.isMonitoring && monitor.isAutoFramingEnabled)
        var widths: [Double] = []
        let watcher = Task {
            var seen: [Double] = []
            for await frame in fields {
                seen.append(frame.fieldOfView.width)
                if abs(frame.fieldOfView.width - 0.375) < 1e-9 || seen.count > 3000 { break }
            }
            return seen
        }
        var closedIn: AppliedFraming?
        let deadline = Task {
            try await Task.sleep(for: .seconds(40))
            monitor.stopMonitoring()
        }
        for await framing in applied where framing.framing == Self.closeUp {
            closedIn = framing
            break
        }
        widths = await watcher.value
        deadline.cancel()
        try monitor.setAutoFramingEnabled(false)
        #expect(!monitor.isAutoFramingEnabled && monitor.isMonitoring)
        monitor.stopMonitoring()
        await session.stopRunning()

        // 1:1 ×2 of 640x480: 240x240 in the middle.
        #expect(closedIn?.crop == PixelRect(x: 200, y: 120, size: PixelSize(width: 240, height: 240)), "\(String(describing: closedIn))")
        #expect(closedIn?.uprightSize == PixelSize(width: 640, height: 480))
        #expect(device.dynamicAspectRatio == .ratio1x1 && device.videoZoomFactor == 2)
        // From the whole picture (width 1) to 1:1 ×2 (0.375) through 1:1 at zooms between 1 and
        // 2 (0.75 … 0.375): several steps, each narrower than the last.
        var steps: [Double] = []
        for width in widths where steps.last.map({ abs($0 - width) > 1e-9 }) ?? true { steps.append(width) }
        let between = steps.filter { $0 < 0.75 - 1e-9 && $0 > 0.375 + 1e-9 }
        #expect(between.count >= 3, "widths of the framed frames: \(steps)")
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $1 < $0 }, "widths of the framed frames: \(steps)")
    }
}
