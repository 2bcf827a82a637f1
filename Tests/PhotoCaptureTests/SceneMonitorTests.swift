import Foundation
import PhotoCapture
import Testing
import TestSupport

/// The scene monitor on frame-file cameras replaying dark, grey and white frames.
@Suite struct SceneMonitorTests {
    static let size = PixelSize(width: 320, height: 240)

    /// A camera replaying a YUYV frame of luma `y` (full range) with neutral chroma.
    static func camera(luma y: UInt8, in folder: TemporaryDirectory) throws -> CaptureDevice {
        let pixels = [UInt8]((0..<size.area / 2).flatMap { _ -> [UInt8] in [y, 128, y, 128] })
        let path = try folder.write(pixels, named: "frame-\(y).yuyv")
        return try CaptureDevice.frameFile(path: path, format: .yuyv, size: size, mounting: .upright, framesPerSecond: 30)
    }

    /// The first published status other than unknown, within 30 s (a bound for a machine busy
    /// with the rest of the suite; idle, it takes about 0.1 s).
    static func firstStatus(of monitor: SceneMonitor) async -> SceneLighting? {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if monitor.lighting != .unknown { return monitor.lighting }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    @Test(arguments: [(UInt8(8), SceneLighting.notEnoughLight), (128, .normal), (255, .tooBright)])
    func theStatusFollowsTheScene(luma: UInt8, expected: SceneLighting) async throws {
        let folder = try TemporaryDirectory("scene")
        let device = try Self.camera(luma: luma, in: folder)
        let (session, output) = try await runningSession(device)
        let monitor = device.sceneMonitor
        var updates = monitor.lightingUpdates().makeAsyncIterator()
        #expect(await updates.next() == .unknown)
        #expect(await Self.firstStatus(of: monitor) == expected)
        #expect(await updates.next() == expected)
        let reading = try #require(monitor.latestReading)
        // The limited-range frame is expanded to full range by the conversion: 8 → 0, 128 → 130, 255 → 255.
        #expect(abs(reading.meanLuma - [8: 0.0, 128: 130.0, 255: 255.0][Int(luma)]!) <= 3, "\(reading)")
        #expect(reading.isExposureAtMaximum == nil)  // a frame file has no exposure controls
        #expect(output.isFlashScene == (expected == .notEnoughLight))

        // Flash .auto on a flashless camera resolves off, dark scene or not.
        var settings = PhotoSettings(format: .jpeg)
        settings.flashMode = .auto
        let resolved = try output.resolvedSettings(for: settings)
        #expect(!resolved.isFlashEnabled)

        await session.stopRunning()
        // Stopping ends the updates.
        var remaining: [SceneLighting] = []
        while let status = await updates.next() { remaining.append(status) }
        #expect(remaining.last == .unknown)
        #expect(monitor.lighting == .unknown)
    }
}
