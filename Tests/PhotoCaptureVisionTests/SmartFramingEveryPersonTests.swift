import PhotoCaptureVision
import Synchronization
import TestSupport
import Testing

/// The smart framing monitor on the live synthetic stream (640x480, 30 fps, the real detector)
/// when a friend joins a person alone in the centre at a side, once the monitor has closed in on
/// that person with 1:1 ×2: the framing must widen to hold both. Part of the mutation list in
/// ``FramingEveryPersonTests``.
///
/// Only bounded waits, no timing: the friend enters when the test says (``SceneSwitch``), not
/// at a time of the script a busy machine might reach before the monitor has closed in.
@Suite struct SmartFramingEveryPersonTests {
    static let closeUp = Framing(aspectRatio: .ratio1x1, zoomFactor: 2)
    static let enabled = [Framing(aspectRatio: .ratio4x3), Framing(aspectRatio: .ratio3x4),
                          Framing(aspectRatio: .ratio16x9, zoomFactor: 1.5), closeUp]
    static let size = PixelSize(width: 640, height: 480)

    /// Where the friend enters, and whether 1:1 ×2 is applied to the camera by then.
    struct Scene: Sendable, CustomTestStringConvertible {
        let name: String
        let friendX: Double
        let applied: Bool
        var testDescription: String { name }
    }

    // The person in the centre has a 54-pixel face (head and shoulders on columns 260…380);
    // 1:1 ×2 keeps columns 200…440. The friend at 0.633 has the face on columns 378…432, inside
    // it, and head and shoulders out to 464; the one at 0.82 is outside it altogether.
    // The monitor analyses the whole field of view, so the applied crop must not matter: the
    // friend outside it (the seeds' headline case) is seen as well as the one inside it.
    static let scenes = [
        Scene(name: "a friend enters at the right inside the applied 1:1 ×2 crop", friendX: 0.633, applied: true),
        Scene(name: "a friend enters at the right outside the recommended 1:1 ×2, not applied", friendX: 0.82, applied: false),
        Scene(name: "a friend enters at the right outside the applied 1:1 ×2 crop", friendX: 0.82, applied: true),
    ]

    @Test(arguments: scenes)
    func theFramingWidensForAFriendEnteringAtASide(scene: Scene) async throws {
        let file = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let portrait = try ReferenceDecoder.imageMagickStored(file)
        let (centre, friend) = (ScriptedPeopleScene.Person(x: 0.5, y: 0.44, faceWidth: 0.085),
                                ScriptedPeopleScene.Person(x: scene.friendX, y: 0.44, faceWidth: 0.085))
        func people(_ people: [ScriptedPeopleScene.Person]) -> ScriptedPeopleScene {
            ScriptedPeopleScene(parts: [.init(start: 0, people: people)], portrait: portrait,
                                faceInPortrait: PixelRect(x: 175, y: 70, size: PixelSize(width: 90, height: 90)))
        }
        let switcher = SceneSwitch(before: people([centre]), after: people([centre, friend]))
        var configuration = CaptureDevice.SyntheticConfiguration(maximumSize: Self.size, framesPerSecond: 30)
        configuration.script = switcher.script
        let device = CaptureDevice.synthetic(configuration)
        let session = CaptureSession()
        try session.addInput(device)
        let monitor = device.smartFramingMonitor
        try monitor.setEnabledFramings(Self.enabled)
        try await session.startRunning()
        try monitor.startMonitoring()
        let outcome = try await cleaningUp(after: { try await Self.play(scene, monitor: monitor, device: device, switcher: switcher) }) {
            monitor.stopMonitoring()
            await session.stopRunning()
        }

        let analyses = "\(monitor.analysedFrameCount) pictures analysed, \(monitor.droppedFrameCount) dropped"
        let closeUpText = outcome.closedIn.map(String.init(describing:)) ?? "nothing"
        #expect(outcome.closedIn == Self.closeUp, "\(scene.name): \(closeUpText) for the person alone in the centre (\(analyses))")
        let faces = switcher.after.faces(at: 0, in: Self.size)
        let missed = FramingEveryPersonTests.leftOut(faces, by: outcome.joined, in: Self.size)
        #expect(missed.isEmpty, "\(scene.name): \(outcome.joined.map(String.init(describing:)) ?? "nothing") recommended, leaving out \(missed) (\(analyses))")
        #expect(outcome.joined == Self.enabled[scene.friendX < 0.7 ? 2 : 0], "\(scene.name): \(outcome.joined.map(String.init(describing:)) ?? "nothing") recommended (\(analyses))")
    }

    /// Waits for the monitor to close in on the person alone, applies that framing if the scene
    /// says so, lets the friend in and waits for a framing holding both; returns both framings.
    static func play(_ scene: Scene, monitor: SmartFramingMonitor, device: CaptureDevice,
                     switcher: SceneSwitch) async throws -> (closedIn: Framing?, joined: Framing?) {
        var closedIn = await settled(monitor) { $0 == closeUp }
        if scene.applied, closedIn == closeUp {
            try await device.setFraming(aspectRatio: closeUp.aspectRatio, videoZoomFactor: closeUp.zoomFactor)
            // The analysis still sees the whole picture: the recommendation stays.
            closedIn = await settled(monitor) { $0 == closeUp }
        }
        guard closedIn == closeUp else { return (closedIn, nil) }
        switcher.switchOver()
        let faces = switcher.after.faces(at: 0, in: size)
        let joined = await settled(monitor) { FramingEveryPersonTests.leftOut(faces, by: $0, in: size).isEmpty }
        return (closedIn, joined)
    }

    /// The monitor's recommendation once it satisfies `wanted` and has stayed for 2 s, or the
    /// last one after 40 s (a busy machine analyses a few pictures a second at least).
    static func settled(_ monitor: SmartFramingMonitor, _ wanted: (Framing?) -> Bool) async -> Framing? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(40)
        var (last, since) = (monitor.recommendedFraming, clock.now)
        while clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
            let now = monitor.recommendedFraming
            if now != last { (last, since) = (now, clock.now) }
            if wanted(now), clock.now - since >= .seconds(2) { break }
        }
        return last
    }
}

/// Two scenes of people and a switch between them: the synthetic camera's script asks for a new
/// picture every half second and gets the second scene's once ``switchOver()`` was called.
final class SceneSwitch: Sendable {
    let before: ScriptedPeopleScene
    let after: ScriptedPeopleScene
    private let switched = Atomic<Bool>(false)

    init(before: ScriptedPeopleScene, after: ScriptedPeopleScene) {
        (self.before, self.after) = (before, after)
    }

    /// The script; it changes every half second for an hour.
    var script: SyntheticSceneScript {
        SyntheticSceneScript(name: "switched people", changeTimes: (0..<7200).map { Double($0) / 2 }) { [self] _, size in
            (switched.load(ordering: .acquiring) ? after : before).image(at: 0, size: size)
        }
    }

    /// From the next half second on, the pictures show ``after``.
    func switchOver() { switched.store(true, ordering: .releasing) }
}
