import Foundation
import PhotoCapture
import PhotoCaptureTesting
import Synchronization
import Testing
import TestSupport

/// RotationCoordinator against python-dbusmock's iio-sensor-proxy on a private bus: the angles
/// for each turn, photos taken at them judged by ImageMagick and exiftool, the claim's life, and
/// no reading (never a hang) without an accelerometer, a proxy or a bus.
@Suite struct RotationCoordinatorTests {
    /// The turns the acceptance names, with what each must give, written out independently of
    /// the code: iio-sensor-proxy's "left-up" is the screen's left edge up, the device turned a
    /// quarter clockwise, so a back camera's photo needs a quarter turn clockwise (EXIF 6).
    static let turns: [(orientation: AccelerometerOrientation, angle: Int, exif: Int)] = [
        (.normal, 0, 1), (.rightUp, 270, 8), (.bottomUp, 180, 3), (.leftUp, 90, 6),
    ]
    static let sensorSize = PixelSize(width: 640, height: 480)
    /// Mean absolute difference (0-255) against the upright scene: JPEG q92 measures about 1-2;
    /// a wrong quarter turn of this scene over 40.
    static let tolerance = 4.0

    /// Printed as iio-sensor-proxy, `monitor-sensor` and GNOME name them, not as Swift cases.
    @Test func orientationsPrintAsTheSensorProxyNamesThem() {
        #expect(AccelerometerOrientation.allCases.map { "\($0)" } == ["normal", "left-up", "bottom-up", "right-up"])
    }

    /// Waits (at most 5 s) until `condition` holds.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// The elements `coordinator.updates()` yields until it finishes or `count` came, waiting at
    /// most `limit`: a stream that hangs fails the test instead of holding it (nil).
    static func updates(of coordinator: RotationCoordinator, count: Int = .max,
                        within limit: Duration = .seconds(10)) async -> [RotationCoordinator.Angles?]? {
        let stream = coordinator.updates()
        return await withTaskGroup(of: [RotationCoordinator.Angles?]?.self) { group in
            group.addTask {
                var seen: [RotationCoordinator.Angles?] = []
                for await angles in stream {
                    seen.append(angles)
                    if seen.count == count { break }
                }
                return seen
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func anglesForEveryOrientationCameraAndScreen() {
        // Clockwise degrees the device is turned, seen from the screen.
        let device: [AccelerometerOrientation: Int] = [.normal: 0, .leftUp: 90, .bottomUp: 180, .rightUp: 270]
        // A front camera looks the other way: the same turn shows the other way round in it.
        let front: [AccelerometerOrientation: Int] = [.normal: 0, .leftUp: 270, .bottomUp: 180, .rightUp: 90]
        for orientation in AccelerometerOrientation.allCases {
            #expect(orientation.deviceRotationAngle == device[orientation])
            let back = RotationCoordinator.Angles(orientation: orientation, location: .back, previewDisplay: .followsDevice)
            #expect(back.horizonLevelCapture == device[orientation] && back.horizonLevelPreview == device[orientation], "\(back)")
            let unknown = RotationCoordinator.Angles(orientation: orientation, location: nil, previewDisplay: .followsDevice)
            #expect(unknown == back)
            let selfie = RotationCoordinator.Angles(orientation: orientation, location: .front, previewDisplay: .followsDevice)
            #expect(selfie.horizonLevelCapture == front[orientation] && selfie.horizonLevelPreview == front[orientation], "\(selfie)")
            let external = RotationCoordinator.Angles(orientation: orientation, location: .external, previewDisplay: .followsDevice)
            // A camera that does not turn with the device sees the world upright, and so does
            // a screen that turns with the device...
            #expect(external.horizonLevelCapture == 0 && external.horizonLevelPreview == 0, "\(external)")
            // ...but a locked screen turns with the device, and its turn must be undone.
            let lockedExternal = RotationCoordinator.Angles(orientation: orientation, location: .external, previewDisplay: .locked(.normal))
            #expect(lockedExternal.horizonLevelPreview == (360 - device[orientation]!) % 360, "\(lockedExternal)")

            // Rotation locked in the natural orientation: the screen turns with the device as a
            // window does, so a back camera's preview stays as it is...
            let locked = RotationCoordinator.Angles(orientation: orientation, location: .back, previewDisplay: .locked(.normal))
            #expect(locked.horizonLevelCapture == device[orientation] && locked.horizonLevelPreview == 0, "\(locked)")
            // ...and a front camera's un-mirrored preview turns twice the device's turn back.
            let lockedSelfie = RotationCoordinator.Angles(orientation: orientation, location: .front, previewDisplay: .locked(.normal))
            #expect(lockedSelfie.horizonLevelPreview == (720 - 2 * device[orientation]!) % 360, "\(lockedSelfie)")
        }
    }

    @Test func followsTheProxyThroughEveryTurnAndPhotosComeOutUpright() async throws {
        let proxy = try SensorProxyMock(hasAccelerometer: true, orientation: "normal")
        let folder = try TemporaryDirectory("photocap-rotation")
        let mounting = SensorMounting(rotation: 90)
        let camera = CaptureDevice.synthetic(.init(sensorMounting: mounting, maximumSize: Self.sensorSize, framesPerSecond: 1000))
        let coordinator = RotationCoordinator(device: camera, bus: .address(proxy.address))
        // The first reading comes once the proxy answered the coordinator's thread.
        #expect(await Self.updates(of: coordinator, count: 1)?.map { $0?.orientation } == [.normal])
        #expect(coordinator.sourceError == nil, "\(coordinator.sourceError!)")
        #expect(try proxy.accelerometerOwners().count == 1, "the accelerometer is claimed while the coordinator follows it")

        let seen = Mutex<[RotationCoordinator.Angles?]>([])
        let updates = coordinator.updates()
        let reader = Task {
            for await angles in updates { seen.withLock { $0.append(angles) } }
        }

        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(camera)
        try session.addOutput(output)
        try await session.startRunning()
        let scene = SyntheticScene.image(size: mounting.compensation.apply(to: Self.sensorSize))

        for turn in Self.turns {
            if turn.orientation != .normal { try proxy.turn(to: turn.orientation.rawValue) }
            #expect(await Self.eventually { coordinator.accelerometerOrientation == turn.orientation },
                    "\(turn.orientation): the coordinator reports \(String(describing: coordinator.accelerometerOrientation))")
            #expect(coordinator.videoRotationAngleForHorizonLevelCapture == turn.angle, "\(turn.orientation)")
            #expect(coordinator.videoRotationAngleForHorizonLevelPreview == turn.angle, "\(turn.orientation)")
            #expect(await Self.eventually { seen.withLock { $0.last??.orientation } == turn.orientation }, "\(turn.orientation) streamed")

            var settings = PhotoSettings(format: .jpeg)
            settings.quality = 92
            settings.rotationAngle = try #require(coordinator.videoRotationAngleForHorizonLevelCapture)
            let photo = try await output.capturePhoto(with: settings)
            let path = folder.path("\(turn.orientation.rawValue).jpg")
            try photo.write(to: path)
            let exif = try ExternalTool.run("exiftool", ["-n", "-s3", "-Orientation", path]).text
            #expect(exif.trimmingCharacters(in: .whitespacesAndNewlines) == "\(turn.exif)", "\(turn.orientation)")
            // Held turned, the world is the scene turned the same way; a viewer must show it so.
            let upright = scene.transformed(by: Orientation(clockwiseDegrees: turn.angle)!)
            let comparison = ImageComparison(actual: try ReferenceDecoder.imageMagickAutoOriented(path), golden: upright,
                                             tolerance: GoldenTolerance(meanAbsoluteDifference: Self.tolerance))
            #expect(comparison.isWithinTolerance, "\(turn.orientation): \(comparison)")
        }
        await session.stopRunning()

        // The proxy reports undefined before its first reading: no angle, not a guess.
        try proxy.turn(to: "undefined")
        #expect(await Self.eventually { coordinator.videoRotationAngleForHorizonLevelCapture == nil })
        #expect(coordinator.sourceError == nil)

        coordinator.invalidate()
        await reader.value
        #expect(try proxy.accelerometerOwners() == [], "the claim is released")
        #expect(try proxy.calls().filter { $0.hasSuffix("Accelerometer") } == ["ClaimAccelerometer", "ReleaseAccelerometer"])
        let orientations = seen.withLock { $0 }.map { $0?.orientation }
        #expect(orientations == [.normal, .rightUp, .bottomUp, .leftUp, nil], "streamed: \(orientations)")
        #expect(coordinator.videoRotationAngleForHorizonLevelCapture == nil, "nothing is reported after invalidate()")
    }

    @Test func followsAProxyThatStartsLaterAndOneThatRestarts() async throws {
        let bus = try SensorProxyMock(hasAccelerometer: nil)
        let coordinator = RotationCoordinator(device: .synthetic(), bus: .address(bus.address))
        #expect(await Self.updates(of: coordinator, count: 1) == [nil], "no proxy yet")
        #expect(coordinator.videoRotationAngleForHorizonLevelCapture == nil)

        try bus.startProxy(hasAccelerometer: true, orientation: "left-up")
        #expect(await Self.eventually { coordinator.videoRotationAngleForHorizonLevelCapture == 90 },
                "a proxy that starts later is found: \(String(describing: coordinator.sourceError))")
        #expect(coordinator.sourceError == nil)
        #expect(try bus.accelerometerOwners().count == 1)

        try bus.stopProxy()
        #expect(await Self.eventually { coordinator.videoRotationAngleForHorizonLevelCapture == nil })
        guard case .proxyUnavailable? = coordinator.sourceError else {
            Issue.record("expected proxyUnavailable, got \(String(describing: coordinator.sourceError))")
            return
        }

        // A new proxy holds no claim of the old one's: the coordinator claims again.
        try bus.startProxy(hasAccelerometer: true, orientation: "bottom-up")
        #expect(await Self.eventually { coordinator.videoRotationAngleForHorizonLevelCapture == 180 })
        #expect(try bus.accelerometerOwners().count == 1)
        try bus.turn(to: "right-up")
        #expect(await Self.eventually { coordinator.videoRotationAngleForHorizonLevelCapture == 270 }, "changes follow the claim")
    }

    /// A coordinator on `bus` that finds no angle there (no accelerometer, or no proxy): made
    /// at once, and its stream starts with the reading there is, none.
    private static func angleless(on bus: SensorProxyMock,
                                  sourceLocation: SourceLocation = #_sourceLocation) async -> RotationCoordinator {
        let start = ContinuousClock.now
        let coordinator = RotationCoordinator(device: .synthetic(), bus: .address(bus.address))
        #expect(ContinuousClock.now - start < .seconds(2), sourceLocation: sourceLocation)
        #expect(await updates(of: coordinator, count: 1) == [nil], sourceLocation: sourceLocation)
        #expect(coordinator.videoRotationAngleForHorizonLevelCapture == nil, sourceLocation: sourceLocation)
        return coordinator
    }

    @Test func noAccelerometerGivesNoAngle() async throws {
        let proxy = try SensorProxyMock(hasAccelerometer: false)
        let coordinator = await Self.angleless(on: proxy)
        #expect(coordinator.videoRotationAngleForHorizonLevelPreview == nil)
        #expect(coordinator.sourceError == .noAccelerometer)
        #expect(try proxy.accelerometerOwners() == [], "nothing to claim")
    }

    @Test func noProxyGivesNoAngle() async throws {
        let bus = try SensorProxyMock(hasAccelerometer: nil)
        let coordinator = await Self.angleless(on: bus)
        guard case .proxyUnavailable(let error) = coordinator.sourceError else {
            Issue.record("expected proxyUnavailable, got \(String(describing: coordinator.sourceError))")
            return
        }
        #expect(error.name == "org.freedesktop.DBus.Error.ServiceUnknown")
        #expect(coordinator.sourceError!.description.contains("iio-sensor-proxy (net.hadess.SensorProxy) is not running"))
    }

    @Test func noBusGivesNoAngle() async throws {
        let folder = try TemporaryDirectory("photocap-nobus")
        let address = "unix:path=\(folder.url.path)/no-socket"
        let start = ContinuousClock.now
        let coordinator = RotationCoordinator(device: .synthetic(), bus: .address(address))
        #expect(ContinuousClock.now - start < .seconds(2))
        // Nothing to follow: the stream gives its reading, none, and ends.
        let seen = await Self.updates(of: coordinator)
        #expect(seen != nil && seen!.allSatisfy { $0 == nil }, "\(String(describing: seen))")
        #expect(coordinator.videoRotationAngleForHorizonLevelCapture == nil)
        #expect(coordinator.sourceError == .busUnavailable(address: address, Errno(ENOENT)), "\(String(describing: coordinator.sourceError))")
    }

    /// A bus whose socket takes the connection and never answers (the maker was once held
    /// 90 s inside sd-bus's authentication wait): the initializer returns at once, and the
    /// coordinator's thread gives up after its 2 s bound, saying it timed out, and ends the
    /// stream.
    @Test func aSilentBusNeitherHoldsTheMakerNorHangs() async throws {
        let folder = try TemporaryDirectory("photocap-silentbus")
        let path = "\(folder.url.path)/silent"
        // Listening, never reading: the kernel completes each connection from the backlog.
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(listener, 8) == 0)

        let start = ContinuousClock.now
        let coordinator = RotationCoordinator(device: .synthetic(), bus: .address("unix:path=\(path)"))
        #expect(ContinuousClock.now - start < .milliseconds(500), "the initializer returns at once")
        #expect(coordinator.videoRotationAngleForHorizonLevelCapture == nil)
        // sd-bus's own wait is 90 s; the coordinator's bound is 2 s. Other suites that hold
        // Swift's pool can delay this task's wake-up, not the coordinator's thread.
        let seen = await Self.updates(of: coordinator, within: .seconds(30))
        let ended = ContinuousClock.now - start
        #expect(seen != nil && seen!.allSatisfy { $0 == nil }, "the stream must end: \(String(describing: seen))")
        #expect(ended >= .milliseconds(1900) && ended < .seconds(30), "the stream ended after \(ended)")
        #expect(coordinator.sourceError == .timedOut(step: "connecting", milliseconds: 2000),
                "\(String(describing: coordinator.sourceError))")
        #expect(coordinator.sourceError?.description
            == "no rotation source: the D-Bus bus accepted the connection but did not answer within 2000 ms")
        let invalidating = ContinuousClock.now
        coordinator.invalidate()
        #expect(ContinuousClock.now - invalidating < .milliseconds(500))
    }
}
