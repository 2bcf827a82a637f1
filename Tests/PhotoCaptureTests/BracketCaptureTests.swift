import Foundation
import PhotoCapture
import Testing
import TestSupport

/// Bracketed capture on the synthetic camera, whose exposure model multiplies the scene's
/// linear light by exposure time × gain and clips at white.
@Suite struct BracketCaptureTests {
    static let size = PixelSize(width: 640, height: 480)

    /// A running synthetic camera; 240 frames a second keeps the settling frames short.
    static func output(exposure: CaptureDevice.SyntheticExposureConfiguration = .init(), framesPerSecond: Int = 240,
                       maximumSize: PixelSize = size) async throws -> (CaptureSession, PhotoOutput, CaptureDevice) {
        var configuration = CaptureDevice.SyntheticConfiguration(maximumSize: maximumSize, framesPerSecond: framesPerSecond)
        configuration.exposure = exposure
        let device = CaptureDevice.synthetic(configuration)
        let (session, output) = try await runningSession(device)
        return (session, output, device)
    }

    static func configuration(controls: SyntheticExposureControlSet) -> CaptureDevice.SyntheticConfiguration {
        var configuration = CaptureDevice.SyntheticConfiguration(maximumSize: size)
        configuration.exposure = .init(controls: controls)
        return configuration
    }

    static func photos(_ output: PhotoOutput, _ settings: PhotoSettings) async throws -> [CapturePhoto] {
        var photos: [CapturePhoto] = []
        for try await photo in try output.capturePhotos(with: settings) { photos.append(photo) }
        return photos
    }

    /// Mean luminance in linear light (BT.709 weights on sRGB-decoded values), written out here
    /// rather than borrowed from the camera model it checks.
    static func linearLuminance(_ image: RGBImage) -> Double {
        let linear = (0..<256).map { (value: Int) -> Double in
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        var sum = 0.0
        for i in stride(from: 0, to: image.pixels.count, by: 3) {
            sum += 0.2126 * linear[Int(image.pixels[i])] + 0.7152 * linear[Int(image.pixels[i + 1])]
                + 0.0722 * linear[Int(image.pixels[i + 2])]
        }
        return sum / Double(image.size.area)
    }

    /// Takes a plain photo in `format` (the stream then runs as a bracket in that format needs)
    /// and waits for one more frame: the stream's timing is known, so a bracket's schedule
    /// needs no frame first.
    static func streamTimingKnown(_ output: PhotoOutput, _ device: CaptureDevice, format: FramePixelFormat? = nil) async throws {
        var settings = PhotoSettings()
        if let format { settings.framePixelFormat = format }
        _ = try await output.capturePhoto(with: settings)
        let streamed = await device.streamStatistics().framesStreamed
        for _ in 0..<1500 where await device.streamStatistics().framesStreamed < streamed + 1 {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The photo's JPEG, decoded by libjpeg-turbo's djpeg.
    static func decoded(_ photo: CapturePhoto, in folder: TemporaryDirectory, _ name: String) throws -> (RGBImage, String) {
        let file = try folder.write([UInt8](try #require(photo.fileDataRepresentation())), named: name)
        return (try ReferenceDecoder.djpeg(file), file)
    }

    /// exiftool's numeric reading of `tags`.
    static func exif(_ file: String, _ tags: [String]) throws -> [String] {
        try ExternalTool.run("exiftool", ["-n", "-s3", "-f"] + tags.map { "-" + $0 } + [file]).checked().text
            .split(separator: "\n").map(String.init)
    }

    // MARK: Acceptance 1

    /// −2/0/+2 EV: mean linear luminance strictly increases, and from −2 to 0 (nothing clips at
    /// either) it grows by 2² = 4 within 3 % (measured 3.99: JPEG q90 and 8-bit rounding of the
    /// dark member). At +2 EV the bright quadrants clip, so that step is less than 4.
    @Test func anEVBracketGetsBrighterByTheBiasWithOneRequestAndOneFinish() async throws {
        let (session, output, _) = try await Self.output()
        let delegate = RecordingDelegate()
        let settings = PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: -2), .autoExposure(exposureTargetBias: 0),
                                                         .autoExposure(exposureTargetBias: 2)])
        try output.capturePhoto(with: settings, delegate: delegate)
        try await delegate.waitForFinishes(1)
        await session.stopRunning()

        let id = settings.uniqueID
        #expect(delegate.events.withLock { $0 } == [
            "willBegin \(id)", "willCapture \(id)", "didCapture \(id)", "didFinishProcessing \(id)",
            "didFinishProcessing \(id)", "didFinishProcessing \(id)", "didFinishCapture \(id)",
        ])
        #expect(delegate.finished.withLock { $0 } == [nil])
        let photos = delegate.photos.withLock { $0 }
        #expect(photos.map(\.sequenceCount) == [1, 2, 3])
        #expect(photos.allSatisfy { $0.photoCount == 3 && $0.resolvedSettings.uniqueID == id })
        #expect(photos[0].resolvedSettings.expectedPhotoCount == 3)
        #expect(photos[0].resolvedSettings.bracketedSettings.map(\.method) == Array(repeating: .exposureTargetBias, count: 3))
        #expect(photos.map { $0.bracketSettings?.sequenceCount } == [1, 2, 3])
        // Each member's frame started after the one before, at least framesToSettle frames on.
        #expect(photos.map(\.frameSequence) == photos.map(\.frameSequence).sorted())
        #expect(photos.allSatisfy { ($0.appliedExposure?.framesSkippedToSettle ?? 0) >= 2 })

        let folder = try TemporaryDirectory("bracket")
        var luminance: [Double] = []
        for photo in photos {
            let (image, file) = try Self.decoded(photo, in: folder, "member-\(photo.sequenceCount).jpg")
            luminance.append(Self.linearLuminance(image))
            #expect(try ExternalTool.exiftoolValidationProblems(file) == [])
            // What the camera applied: the bias, and the exposure time automatic exposure chose
            // for it (1/100 s metered, so 1/400, 1/100, 1/25 s), at ISO 100.
            let bias = [-2.0, 0, 2][photo.sequenceCount - 1]
            let tags = try Self.exif(file, ["ExposureCompensation", "ExposureTime", "ISO"])
            #expect(Double(tags[0]) == bias, "\(tags)")
            #expect(abs((Double(tags[1]) ?? 0) - 0.01 * pow(2, bias)) < 1e-9, "\(tags)")
            #expect(tags[2] == "100")
            #expect(photo.appliedExposure?.exposureTargetBias == bias)
        }
        #expect(luminance[0] < luminance[1] && luminance[1] < luminance[2], "\(luminance)")
        let ratio = luminance[1] / luminance[0]
        #expect(abs(ratio / 4 - 1) < 0.03, "−2 → 0 EV multiplied luminance by \(ratio)")
        // The 0 EV member is the scene itself.
        let scene = Self.linearLuminance(SyntheticScene.image(size: Self.size))
        #expect(abs(luminance[1] / scene - 1) < 0.02, "0 EV \(luminance[1]) vs scene \(scene)")
    }

    /// Manual members: 1/100 s at ISO 100, then 1/50 s at ISO 200 is 4 times the light; the
    /// metered exposure is 1/100 s at ISO 100, so the first member is the scene itself.
    @Test func manualMembersSetExposureTimeAndISO() async throws {
        let (session, output, _) = try await Self.output()
        let settings = PhotoSettings(bracketedSettings: [.manualExposure(exposureDuration: 0.0025, iso: 100),
                                                         .manualExposure(exposureDuration: 0.005, iso: 200)])
        let photos = try await Self.photos(output, settings)
        await session.stopRunning()
        #expect(photos.map(\.sequenceCount) == [1, 2])
        let folder = try TemporaryDirectory("bracket-manual")
        let (first, firstFile) = try Self.decoded(photos[0], in: folder, "a.jpg")
        let (second, secondFile) = try Self.decoded(photos[1], in: folder, "b.jpg")
        let ratio = Self.linearLuminance(second) / Self.linearLuminance(first)
        #expect(abs(ratio / 4 - 1) < 0.03, "2× time × 2× ISO gave \(ratio)")
        #expect(try Self.exif(firstFile, ["ExposureTime", "ISO", "ExposureCompensation"]) == ["0.0025", "100", "-"])
        #expect(try Self.exif(secondFile, ["ExposureTime", "ISO"]) == ["0.005", "200"])
        #expect(photos[1].appliedExposure?.controls.contains { $0.key == "gain_automatic" && $0.value == 0 } == true)
        #expect(photos.allSatisfy { $0.resolvedSettings.bracketedSettings.allSatisfy { $0.method == .manual } })
    }

    /// Without a bias control, a bias multiplies the metered exposure time (automatic exposure
    /// switched to manual); without that too, the metered gain.
    @Test(arguments: [(SyntheticExposureControlSet.exposureDuration, BracketExposureMethod.exposureDuration),
                      (.iso, .iso)])
    func withoutABiasControlTheBiasScalesTheMeteredTimeOrGain(_ controls: SyntheticExposureControlSet,
                                                               _ method: BracketExposureMethod) async throws {
        let (session, output, device) = try await Self.output(exposure: .init(controls: controls))
        #expect(device.exposureCapabilities?.exposureTargetBias == nil)
        let settings = PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: -1), .autoExposure(exposureTargetBias: 1)])
        let resolved = try output.resolvedSettings(for: settings)
        #expect(resolved.bracketedSettings.map(\.method) == [method, method])
        let photos = try await Self.photos(output, settings)
        await session.stopRunning()
        let folder = try TemporaryDirectory("bracket-scaled")
        let dark = try Self.decoded(photos[0], in: folder, "dark.jpg")
        let bright = try Self.decoded(photos[1], in: folder, "bright.jpg")
        #expect(Self.linearLuminance(dark.0) < Self.linearLuminance(bright.0))
        #expect(photos.map { $0.appliedExposure?.exposureTargetBias } == [-1, 1])
        if method == .exposureDuration {
            #expect(photos.map { $0.appliedExposure?.exposureDuration } == [0.005, 0.02])
            #expect(try Self.exif(dark.1, ["ExposureTime", "ExposureCompensation"]) == ["0.005", "-1"])
        } else {
            #expect(photos.map { $0.appliedExposure?.iso } == [50, 200])
            #expect(try Self.exif(bright.1, ["ISO", "ExposureCompensation"]) == ["200", "1"])
        }
    }

    // MARK: Settling and restoring

    /// The simulated sensor applies a change two frames late. Driven like a V4L2 camera,
    /// settling takes the right frame; with no settling the first member is a frame still
    /// exposed the old way.
    @Test func framesToSettleSkipsFramesStillExposedTheOldWay() async throws {
        let (session, output, device) = try await Self.output(exposure: .init(controlDelayFrames: 2, perFrameControls: false),
                                                              framesPerSecond: 60)
        #expect(device.framesToSettle == 2)
        let folder = try TemporaryDirectory("bracket-settle")
        let scene = Self.linearLuminance(SyntheticScene.image(size: Self.size))
        func firstMemberLuminance() async throws -> Double {
            let photos = try await Self.photos(output, PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: -2)]))
            return Self.linearLuminance(try Self.decoded(photos[0], in: folder, "\(UUID()).jpg").0)
        }
        #expect(abs(try await firstMemberLuminance() / scene - 0.25) < 0.02)
        device.framesToSettle = 0
        #expect(abs(try await firstMemberLuminance() / scene - 1) < 0.02, "too early: the metered exposure")
        await session.stopRunning()
    }

    /// With controls set per frame (the synthetic camera's default) the members are
    /// consecutive frames, each exposed as asked, and the frame right after them is metered
    /// again; driven as a V4L2 camera, members lie 1 + framesToSettle frames apart or more.
    /// With framesToSettle below the sensor's delay, the camera moves the first member to the
    /// first frame it can still reach: still exposed as asked.
    @Test func perFrameControlsTakeTheMembersOnConsecutiveFrames() async throws {
        let folder = try TemporaryDirectory("bracket-consecutive")
        let scene = Self.linearLuminance(SyntheticScene.image(size: Self.size))
        let members: [BracketedStillImageSettings] = [.autoExposure(exposureTargetBias: -2), .autoExposure(exposureTargetBias: -1),
                                                      .autoExposure(exposureTargetBias: 0)]
        for perFrame in [true, false] {
            let (session, output, device) = try await Self.output(exposure: .init(perFrameControls: perFrame), framesPerSecond: 60)
            for settle in perFrame ? [2, 0] : [2] {
                device.framesToSettle = settle
                let photos = try await Self.photos(output, PhotoSettings(bracketedSettings: members))
                let sequences = photos.map(\.frameSequence)
                let gaps = zip(sequences.dropFirst(), sequences).map { $0 - $1 }
                if perFrame {
                    #expect(gaps == [1, 1], "settle \(settle): frames \(sequences)")
                } else {
                    #expect(gaps.allSatisfy { $0 >= 3 }, "frames \(sequences)")
                }
                // At least the sensor's two-frame delay passed before the first member.
                #expect((photos.first?.appliedExposure?.framesSkippedToSettle ?? 0) >= 2)
                for (photo, factor) in zip(photos, [0.25, 0.5, 1]) {
                    let measured = Self.linearLuminance(try Self.decoded(photo, in: folder, "\(UUID()).jpg").0) / scene
                    #expect(abs(measured / factor - 1) < 0.04, "per frame \(perFrame), settle \(settle), member \(photo.sequenceCount): \(measured)")
                }
                // The bracket ends once the restored exposure reached a frame: the next photo is metered.
                let plain = try await output.capturePhoto(with: PhotoSettings())
                #expect(abs(Self.linearLuminance(try Self.decoded(plain, in: folder, "\(UUID()).jpg").0) / scene - 1) < 0.02)
            }
            await session.stopRunning()
        }
    }

    /// A photo in another format requested between the schedule and the members' frames
    /// restarts the stream, so the scheduled frames never come: the members are then taken one
    /// by one, each settled, and still exposed as asked.
    @Test func aBracketWhoseScheduledFramesAreLostIsTakenMemberByMember() async throws {
        // 4 frames a second: the first member's frame is 2 frames and more (500 ms) after the
        // schedule, made as the bracket's willCapture is called.
        let (session, output, device) = try await Self.output(framesPerSecond: 4)
        var bracket = PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: -2), .autoExposure(exposureTargetBias: -1)])
        bracket.framePixelFormat = .yuyv
        var plain = PhotoSettings()
        plain.framePixelFormat = .nv12
        try await Self.streamTimingKnown(output, device, format: .yuyv)
        let delegate = RecordingDelegate()
        try output.capturePhoto(with: bracket, delegate: delegate)
        for _ in 0..<600 where !delegate.events.withLock({ $0.contains("willCapture \(bracket.uniqueID)") }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        try await Task.sleep(for: .milliseconds(50))
        let between = try await output.capturePhoto(with: plain)
        #expect(between.frameDelivery.frameSelection == .firstFrameAfterChange)
        try await delegate.waitForFinishes(1)
        await session.stopRunning()
        #expect(delegate.finished.withLock { $0 } == [nil])
        let photos = delegate.photos.withLock { $0 }
        #expect(photos.map(\.sequenceCount) == [1, 2])
        // Taken member by member: 1 + framesToSettle frames apart at least, not consecutive.
        // Compared without subtracting: a member taken from the lost schedule would have a
        // frame of the stream before the restart, numbered higher, and UInt64 would trap.
        #expect(photos.count == 2 && photos[1].frameSequence >= photos[0].frameSequence + 3,
                "frames \(photos.map(\.frameSequence))")
        let folder = try TemporaryDirectory("bracket-lost-frames")
        let scene = Self.linearLuminance(SyntheticScene.image(size: Self.size))
        for (photo, factor) in zip(photos, [0.25, 0.5]) {
            let measured = Self.linearLuminance(try Self.decoded(photo, in: folder, "\(UUID()).jpg").0) / scene
            #expect(abs(measured / factor - 1) < 0.04, "member \(photo.sequenceCount): \(measured)")
        }
    }

    /// After a bracket the camera is back at its metered exposure: a plain photo shows the
    /// scene itself.
    @Test func controlsAreRestoredAfterTheBracket() async throws {
        let folder = try TemporaryDirectory("bracket-restore")
        let scene = SyntheticScene.image(size: Self.size)
        let (session, output, _) = try await Self.output()
        _ = try await Self.photos(output, PhotoSettings(bracketedSettings: [.manualExposure(exposureDuration: 0.001, iso: 50),
                                                                            .manualExposure(exposureDuration: 0.1, iso: 800)]))
        _ = try await Self.photos(output, PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: 3)]))
        let plain = try await output.capturePhoto(with: PhotoSettings())
        #expect(try Self.decoded(plain, in: folder, "after.jpg").0.meanAbsoluteDifference(to: scene) < 3)
        await session.stopRunning()
    }

    /// A bracket that fails part-way ends with the error, delivers the members taken before it
    /// and leaves the camera at its metered exposure, with controls set per frame and without.
    @Test(arguments: [true, false]) func controlsAreRestoredAfterAFailure(perFrameControls: Bool) async throws {
        let folder = try TemporaryDirectory("bracket-restore-failure")
        let scene = SyntheticScene.image(size: Self.size)
        // One frame a second: member 2's frame comes a second or more after member 1's, so
        // stopping as soon as member 1's frame is handed out falls between the two, however
        // loaded the machine is.
        let (session, output, device) = try await Self.output(exposure: .init(perFrameControls: perFrameControls), framesPerSecond: 1)
        // The bracket's format is a plain photo's.
        try await Self.streamTimingKnown(output, device)
        let delegate = RecordingDelegate()
        let settings = PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: 2), .autoExposure(exposureTargetBias: 4)])
        // Member 1's frame is the one claimed for it, or the last of its 1 + framesToSettle.
        let memberOneHandedOut = await device.streamStatistics().framesDelivered + 1 + (perFrameControls ? 0 : device.framesToSettle)
        try output.capturePhoto(with: settings, delegate: delegate)
        for _ in 0..<600 where await device.streamStatistics().framesDelivered < memberOneHandedOut {
            try await Task.sleep(for: .milliseconds(50))
        }
        await session.stopRunning()
        try await delegate.waitForFinishes(1)
        let errors = delegate.finished.withLock { $0 }
        #expect(errors == [PhotoCaptureError(.sessionNotRunning, uniqueID: settings.uniqueID)])
        // The member captured before the failure is delivered; the pending one is not.
        #expect(delegate.photos.withLock { $0.map(\.sequenceCount) } == [1])
        #expect(!delegate.events.withLock { $0 }.contains("didCapture \(settings.uniqueID)"))
        try await session.startRunning()
        let plain = try await output.capturePhoto(with: PhotoSettings())
        #expect(try Self.decoded(plain, in: folder, "after-failure.jpg").0.meanAbsoluteDifference(to: scene) < 3)
        await session.stopRunning()
    }

    /// Two brackets submitted together run one after the other: neither sees the other's
    /// exposure.
    @Test func concurrentBracketsDoNotMixTheirExposures() async throws {
        let (session, output, _) = try await Self.output()
        let dark = PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: -2), .autoExposure(exposureTargetBias: -2)])
        let bright = PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: -1), .autoExposure(exposureTargetBias: -1)])
        async let darkPhotos = Self.photos(output, dark)
        async let brightPhotos = Self.photos(output, bright)
        let (a, b) = try await (darkPhotos, brightPhotos)
        await session.stopRunning()
        let folder = try TemporaryDirectory("bracket-concurrent")
        let scene = Self.linearLuminance(SyntheticScene.image(size: Self.size))
        for (photo, factor) in zip(a + b, [0.25, 0.25, 0.5, 0.5]) {
            let measured = Self.linearLuminance(try Self.decoded(photo, in: folder, "\(UUID()).jpg").0) / scene
            #expect(abs(measured / factor - 1) < 0.04, "\(photo.resolvedSettings.uniqueID): \(measured)")
        }
    }

    // MARK: Acceptance 3: validation

    static func rejection(_ output: PhotoOutput, _ settings: PhotoSettings) -> PhotoCaptureError? {
        do {
            _ = try output.resolvedSettings(for: settings)
            return nil
        } catch {
            return error
        }
    }

    @Test func tooManyMembersAreRejectedWithTheMaximum() async throws {
        let (session, output, device) = try await Self.output(exposure: .init(maxBracketedCapturePhotoCount: 5))
        #expect(output.maxBracketedCapturePhotoCount == 5)
        #expect(device.maxBracketedCapturePhotoCount == 5)
        let settings = PhotoSettings(bracketedSettings: (0..<6).map { .autoExposure(exposureTargetBias: Double($0) - 3) })
        #expect(Self.rejection(output, settings) == PhotoCaptureError(.bracket(.tooManyPhotos(requested: 6, maximum: 5)),
                                                                       uniqueID: settings.uniqueID))
        // Rejected at submission: no delegate call, the ID stays unused.
        #expect(throws: PhotoCaptureError.self) { try output.capturePhoto(with: settings, delegate: RecordingDelegate()) }
        #expect(try output.resolvedSettings(for: PhotoSettings(bracketedSettings: Array(settings.bracketedSettings.prefix(5))))
            .expectedPhotoCount == 5)
        await session.stopRunning()
    }

    @Test func aCameraWithoutExposureControlsCannotBracket() async throws {
        // A frame file, and a synthetic camera built without controls.
        let folder = try TemporaryDirectory("bracket-frame-file")
        let file = try folder.writeFrame(of: SyntheticScene.image(size: PixelSize(width: 64, height: 48)), format: .rgb24, named: "frame.rgb")
        let cameras = [try CaptureDevice.frameFile(path: file, format: .rgb24, size: PixelSize(width: 64, height: 48)),
                       CaptureDevice.synthetic(Self.configuration(controls: []))]
        for camera in cameras {
            #expect(camera.exposureCapabilities == nil)
            #expect(camera.maxBracketedCapturePhotoCount == 1)
            let session = CaptureSession()
            let output = PhotoOutput()
            try session.addInput(camera)
            try session.addOutput(output)
            let settings = PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: 0)])
            #expect(Self.rejection(output, settings) == PhotoCaptureError(.bracket(.noExposureControls(device: camera.uniqueID)),
                                                                           uniqueID: settings.uniqueID))
        }
    }

    @Test func aManualMemberNeedsItsControl() async throws {
        let (session, output, device) = try await Self.output(exposure: .init(controls: [.iso]))
        let settings = PhotoSettings(bracketedSettings: [.manualExposure(exposureDuration: 0.01, iso: nil)])
        #expect(Self.rejection(output, settings)?.code == .bracket(.controlUnavailable(device: device.uniqueID, control: "exposure time")))
        // ISO alone is fine.
        #expect(try output.resolvedSettings(for: PhotoSettings(bracketedSettings: [.manualExposure(exposureDuration: nil, iso: 400)]))
            .bracketedSettings.first?.iso == 400)
        await session.stopRunning()
    }

    @Test func mixturesFlashAndImpossibleValuesAreRejected() async throws {
        let (session, output, _) = try await Self.output()
        let mixed = PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: 0), .manualExposure(exposureDuration: 0.01, iso: 100)])
        #expect(Self.rejection(output, mixed)?.code == .bracket(.mixedMemberKinds))
        var flash = PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: 0)])
        flash.flashMode = .auto
        #expect(Self.rejection(output, flash)?.code == .bracket(.flashNotAllowed))
        for (member, reason) in [(BracketedStillImageSettings.autoExposure(exposureTargetBias: .nan), "bias nan EV is not a number"),
                                 (.manualExposure(exposureDuration: 0, iso: nil), "exposure time 0.0 s is not above 0"),
                                 (.manualExposure(exposureDuration: nil, iso: -100), "ISO/gain -100.0 is not above 0")] {
            let settings = PhotoSettings(bracketedSettings: [member])
            #expect(Self.rejection(output, settings)?.code == .bracket(.invalidExposure(sequenceCount: 1, reason: reason)))
        }
        await session.stopRunning()
    }

    /// Values beyond the camera's range are clamped to it, and every change is reported.
    @Test func valuesOutsideTheRangeAreAdjustedAndReported() async throws {
        let (session, output, device) = try await Self.output()
        let capabilities = try #require(device.exposureCapabilities)
        #expect(capabilities.exposureTargetBias?.maximum == 4)
        #expect(capabilities.exposureDuration?.maximum == 1)
        #expect(capabilities.iso?.maximum == 6400)
        let bias = try output.resolvedSettings(for: PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: -6),
                                                                                      .autoExposure(exposureTargetBias: 1)]))
        #expect(bias.bracketedSettings.map(\.exposureTargetBias) == [-4, 1])
        #expect(bias.adjustments.contains(.exposureTargetBias(sequenceCount: 1, requested: -6, chosen: -4)))
        #expect(!bias.adjustments.contains { if case .exposureTargetBias(2, _, _) = $0 { true } else { false } })
        let manual = try output.resolvedSettings(for: PhotoSettings(bracketedSettings: [
            .manualExposure(exposureDuration: 5, iso: 12_800), .manualExposure(exposureDuration: 1.0 / 3000, iso: 10)]))
        #expect(manual.bracketedSettings.map(\.exposureDuration) == [1, 0.0003])
        #expect(manual.bracketedSettings.map(\.iso) == [6400, 25])
        #expect(manual.adjustments.filter { $0.description.hasPrefix("bracket") } == [
            .exposureDuration(sequenceCount: 1, requested: 5, chosen: 1), .iso(sequenceCount: 1, requested: 12_800, chosen: 6400),
            .exposureDuration(sequenceCount: 2, requested: 1.0 / 3000, chosen: 0.0003), .iso(sequenceCount: 2, requested: 10, chosen: 25),
        ])
        #expect(manual.adjustments.map(\.description).contains("bracket member 1: exposure 5 s → 1 s (camera range)"))
        // The photo states the clamped values that were applied.
        let photos = try await Self.photos(output, PhotoSettings(bracketedSettings: [.autoExposure(exposureTargetBias: 6)]))
        #expect(photos.first?.appliedExposure?.exposureTargetBias == 4)
        #expect(photos.first?.metadata["ExposureBiasValue"]?.hasPrefix("4.00") == true, "\(photos.first?.metadata ?? [:])")
        #expect(photos.first?.exif.exposureBias == 4)
        let exposed = try #require(try await Self.photos(output, PhotoSettings(bracketedSettings: [
            .manualExposure(exposureDuration: 1.0 / 50, iso: 400)])).first)
        let applied = try #require(exposed.appliedExposure)
        #expect(abs((exposed.exif.exposureTime ?? .nan) - (applied.exposureDuration ?? .nan)) < 1e-4, "\(exposed.metadata)")
        #expect(exposed.exif.isoSpeed.map(Double.init) == applied.iso, "\(exposed.metadata)")
        await session.stopRunning()
    }

    /// A single photo is unchanged: one photo, no bracket data, no exposure tags.
    @Test func aSinglePhotoHasNoBracket() async throws {
        let (session, output, _) = try await Self.output()
        let photo = try await output.capturePhoto(with: PhotoSettings())
        await session.stopRunning()
        #expect(photo.photoCount == 1 && photo.sequenceCount == 1)
        #expect(photo.bracketSettings == nil && photo.appliedExposure == nil)
        #expect(photo.resolvedSettings.bracketedSettings.isEmpty)
        #expect(photo.metadata["ExposureTime"] == nil)
    }
}
