import Foundation
import PhotoCapture
import Synchronization
import Testing
import TestSupport

/// Brackets on a real V4L2 driver: vivid's only exposure-type control is `gain` (0...255,
/// inactive while `gain_automatic` is 1), so brackets go through it. Control values are checked
/// with v4l2-ctl, not with photocap. Each test reloads vivid; off outside the VM
/// (Tests/V4L2Integration/run-vivid-vm.sh).
@Suite(.serialized, .vivid)
struct VividBracketTests {
    let path = Vivid.path
    let folder: TemporaryDirectory

    init() throws { folder = try Vivid.reloaded(folder: "vivid-bracket") }

    /// A control's value as v4l2-ctl reads it.
    func control(_ name: String) throws -> Int {
        let text = try ExternalTool.run("v4l2-ctl", ["-d", path, "-C", name]).checked().text
        let value = text.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        return try #require(Int(value), "v4l2-ctl -C \(name): \(text)")
    }

    func session() async throws -> (CaptureSession, PhotoOutput, CaptureDevice) {
        let device = try CaptureDevice.v4l2(path: path)
        let (session, output) = try await runningSession(device)
        return (session, output, device)
    }

    static func bracket(_ members: [BracketedStillImageSettings]) -> PhotoSettings {
        var settings = PhotoSettings(bracketedSettings: members)
        settings.framePixelFormat = .yuyv
        settings.maxPhotoDimensions = PixelSize(width: 640, height: 360)
        return settings
    }

    /// Waits (at most 20 s) until v4l2-ctl reads `value` for `name`: the bracket got that far.
    func waitFor(_ name: String, _ value: Int) async throws {
        for _ in 0..<200 {
            if try control(name) == value { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("\(name) never became \(value)")
    }

    @Test func theGainControlIsWhatABracketCanUse() throws {
        let device = try CaptureDevice.v4l2(path: path)
        let capabilities = try #require(device.exposureCapabilities)
        #expect(capabilities.exposureTargetBias == nil && capabilities.exposureDuration == nil)
        // vivid's gain is 0...255; 0 cannot be scaled or written as an ISO, so the range starts at 1.
        #expect(capabilities.iso == ExposureControlRange(control: "gain", minimum: 1, maximum: 255, step: 1))
        #expect(device.maxBracketedCapturePhotoCount == 8)
        #expect(device.framesToSettle == 3)
        // vivid has no exposure time: a manual time cannot be honoured.
        let output = PhotoOutput()
        let session = CaptureSession()
        try session.addInput(device)
        try session.addOutput(output)
        let settings = Self.bracket([.manualExposure(exposureDuration: 0.01, iso: 100)])
        #expect(throws: PhotoCaptureError(.bracket(.controlUnavailable(device: path, control: "exposure time")),
                                          uniqueID: settings.uniqueID)) { try output.resolvedSettings(for: settings) }
    }

    /// ISO 50, 100, 200 and 300 on vivid: automatic gain goes off, each gain is read back (300 is
    /// clamped to 255 and reported), EXIF states the values, and automatic gain is back on after.
    @Test func aManualBracketThroughGainReadsBackAndRestoresAutomaticGain() async throws {
        #expect(try control("gain_automatic") == 1)
        let (session, output, _) = try await session()
        let settings = Self.bracket([50, 100, 200, 300].map { .manualExposure(exposureDuration: nil, iso: $0) })
        let resolved = try output.resolvedSettings(for: settings)
        #expect(resolved.bracketedSettings.map(\.iso) == [50, 100, 200, 255])
        #expect(resolved.adjustments.contains(.iso(sequenceCount: 4, requested: 300, chosen: 255)))
        var photos: [CapturePhoto] = []
        for try await photo in try output.capturePhotos(with: settings) { photos.append(photo) }
        await session.stopRunning()

        #expect(photos.map(\.sequenceCount) == [1, 2, 3, 4])
        #expect(photos.map { $0.appliedExposure?.iso } == [50, 100, 200, 255])
        for photo in photos {
            let controls = photo.appliedExposure?.controls ?? []
            #expect(controls.map(\.key) == ["gain_automatic", "gain"])
            #expect(controls.first?.value == 0)
            #expect(photo.appliedExposure?.exposureDuration == nil, "vivid reports no exposure time")
        }
        let files = try photos.map { try folder.write([UInt8]($0.fileDataRepresentation()!), named: "iso-\($0.sequenceCount).jpg") }
        let iso = try files.map { try ExternalTool.run("exiftool", ["-n", "-s3", "-ISO", $0]).checked().text
            .trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(iso == ["50", "100", "200", "255"])
        #expect(try ExternalTool.exiftoolValidationProblems(files[0]) == [])
        #expect(try control("gain_automatic") == 1, "automatic gain restored")
    }

    /// With automatic gain off at gain 60, a −1/0/+1 EV bracket scales the gain to 30, 60, 120;
    /// afterwards gain is 60 and automatic gain still off, as before.
    @Test func anEVBracketScalesTheMeteredGainAndRestoresIt() async throws {
        try Vivid.set(["gain_automatic": "0"])
        try Vivid.set(["gain": "60"])
        let (session, output, _) = try await session()
        let settings = Self.bracket([-1, 0, 1].map { .autoExposure(exposureTargetBias: $0) })
        var photos: [CapturePhoto] = []
        for try await photo in try output.capturePhotos(with: settings) { photos.append(photo) }
        await session.stopRunning()
        #expect(photos.map { $0.bracketSettings?.method } == [.iso, .iso, .iso])
        #expect(photos.map { $0.appliedExposure?.iso } == [30, 60, 120])
        #expect(photos.map { $0.appliedExposure?.exposureTargetBias } == [-1, 0, 1])
        let file = try folder.write([UInt8](photos[2].fileDataRepresentation()!), named: "plus-one.jpg")
        #expect(try ExternalTool.run("exiftool", ["-n", "-s3", "-ExposureCompensation", "-ISO", file]).checked().text
            .split(separator: "\n") == ["1", "120"])
        #expect(try control("gain") == 60)
        #expect(try control("gain_automatic") == 0)
    }

    /// The camera stops delivering while member 2 waits for its frame: the request ends with a
    /// frame timeout carrying its ID, member 1 is delivered, and gain goes back to 60.
    @Test func aFailedMemberStillRestoresTheControls() async throws {
        try Vivid.set(["gain_automatic": "0"])
        try Vivid.set(["gain": "60"])
        let (session, output, _) = try await session()
        output.frameTimeout = .seconds(1)
        let settings = Self.bracket([90, 150, 210].map { .manualExposure(exposureDuration: nil, iso: $0) })
        let collected = Mutex<[CapturePhoto]>([])
        let capture = Task {
            for try await photo in try output.capturePhotos(with: settings) { collected.withLock { $0.append(photo) } }
        }
        try await waitFor("gain", 150)
        try Vivid.set(["percentage_of_dropped_buffers": "100"])
        let result = await capture.result
        await session.stopRunning()
        #expect(throws: PhotoCaptureError(.frameTimeout(milliseconds: 1000, device: path, frame: .startedAfterRequest),
                                           uniqueID: settings.uniqueID)) { try result.get() }
        #expect(collected.withLock { $0.map(\.sequenceCount) } == [1])
        #expect(try control("gain") == 60)
        #expect(try control("gain_automatic") == 0)
    }

    /// Unplugged mid-bracket: the pending members end with one typed error carrying the
    /// request's ID, promptly; the controls cannot be restored on a vanished device, and that
    /// neither crashes nor hangs.
    @Test func aDisconnectMidBracketEndsThePendingMembersWithTheID() async throws {
        let (session, output, _) = try await session()
        let delegate = RecordingDelegate()
        let settings = Self.bracket([40, 80, 160, 240].map { .manualExposure(exposureDuration: nil, iso: $0) })
        try output.capturePhoto(with: settings, delegate: delegate)
        try await waitFor("gain", 80)
        try Vivid.set(["disconnect": "1"])
        let started = ContinuousClock.now
        let finished = Task { try await delegate.waitForFinishes(1) }
        let outcome = await Task {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask { try await finished.value; return true }
                group.addTask { try await Task.sleep(for: .seconds(20)); return false }
                let first = try await group.next()!
                group.cancelAll()
                return first
            }
        }.result
        #expect((try? outcome.get()) == true, "the request must end")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(delegate.finished.withLock { $0 } == [PhotoCaptureError(.deviceDisconnected(device: path), uniqueID: settings.uniqueID)])
        #expect(delegate.photos.withLock { $0.count } < 4)
        #expect(delegate.events.withLock { $0.last } == "didFinishCapture \(settings.uniqueID)")
        await session.stopRunning()
    }
}
