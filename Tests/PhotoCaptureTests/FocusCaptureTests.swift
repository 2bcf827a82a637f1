import Foundation
import PhotoCapture
import Testing
import TestSupport

/// Focus on the synthetic camera, whose simulated lens blurs the picture in proportion to how
/// far it is from the subject's in-focus position. Sharpness is judged on the
/// delivered pixels (luma gradient energy), never on what the lens model says of itself.
@Suite struct FocusCaptureTests {
    static let size = PixelSize(width: 320, height: 240)
    static let inFocus = 600

    /// A running synthetic camera with `lens`; 60 frames a second keeps scans and settling short.
    static func output(_ lens: CaptureDevice.SyntheticLensConfiguration? = .init()) async throws -> (CaptureSession, PhotoOutput, CaptureDevice) {
        var configuration = CaptureDevice.SyntheticConfiguration(maximumSize: size, framesPerSecond: 60)
        configuration.lens = lens
        let device = CaptureDevice.synthetic(configuration)
        let (session, output) = try await runningSession(device)
        return (session, output, device)
    }

    static func settings(_ focus: FocusRequest?) -> PhotoSettings {
        var settings = PhotoSettings(format: .uncompressed)
        settings.focus = focus
        return settings
    }

    static func sharpness(_ photo: CapturePhoto) throws -> Double { try photo.pixelBuffer.rgbImage().lumaGradientEnergy }

    @Test func theSyntheticCameraReportsItsLens() async throws {
        let (session, _, device) = try await Self.output()
        let capabilities = try #require(device.focusCapabilities)
        #expect(capabilities.supportedFocusModes == [.locked, .autoFocus, .continuousAutoFocus])
        #expect(capabilities.lensPosition == ExposureControlRange(control: "focus_absolute", minimum: 0, maximum: 1023, step: 1))
        #expect(FocusMode.allCases.allSatisfy(device.isFocusModeSupported))
        await session.stopRunning()
    }

    @Test func sharpnessPeaksAtTheInFocusPositionAndFallsOffOnBothSides() async throws {
        let (session, output, _) = try await Self.output()
        let positions = [100, 300, 450, 550, Self.inFocus, 650, 750, 900, 1023]
        var sharpness: [Double] = []
        for position in positions {
            let photo = try await output.capturePhoto(with: Self.settings(.manual(lensPosition: Double(position))))
            let focus = try #require(photo.resolvedSettings.focus)
            #expect(focus.mode == .locked && focus.requestedLensPosition == Double(position))
            #expect(focus.lensPosition == Double(position), "read back from the lens")
            sharpness.append(try Self.sharpness(photo))
        }
        await session.stopRunning()
        let peak = try #require(positions.firstIndex(of: Self.inFocus))
        #expect(sharpness.firstIndex(of: sharpness.max()!) == peak, "\(zip(positions, sharpness).map { "\($0): \($1)" })")
        // Strictly less sharp with every step away, on both sides.
        for index in 0..<peak { #expect(sharpness[index] < sharpness[index + 1], "\(positions[index]) vs \(positions[index + 1])") }
        for index in peak..<(positions.count - 1) {
            #expect(sharpness[index] > sharpness[index + 1], "\(positions[index]) vs \(positions[index + 1])")
        }
        // In focus, the lens adds no blur: the scene's own edges.
        #expect(abs(sharpness[peak] - SyntheticScene.image(size: Self.size).lumaGradientEnergy) < sharpness[peak] * 0.05)
    }

    /// The lens starts locked far from the subject; a one-shot scan focuses it for the photo, and
    /// afterwards it is back where it was (the next plain photo is as blurred as the first).
    @Test func oneShotAutofocusGivesASharpPictureAndPutsTheLensBack() async throws {
        let (session, output, _) = try await Self.output(.init(initialLensPosition: 100))
        let sharp = SyntheticScene.image(size: Self.size).lumaGradientEnergy
        let before = try Self.sharpness(try await output.capturePhoto(with: Self.settings(nil)))
        let focused = try await output.capturePhoto(with: Self.settings(.once()))
        let afterPhoto = try await output.capturePhoto(with: Self.settings(nil))
        let after = try Self.sharpness(afterPhoto)
        await session.stopRunning()

        let focus = try #require(focused.resolvedSettings.focus)
        #expect(focus.mode == .autoFocus && focus.autoFocusResult == .reached)
        #expect(focus.lensPosition == Double(Self.inFocus))
        #expect(focus.autoFocusTimeout == FocusRequest.defaultAutoFocusTimeout)
        #expect(abs(try Self.sharpness(focused) - sharp) < sharp * 0.05)
        #expect(before < sharp * 0.5, "the defocused lens blurs: \(before) vs \(sharp)")
        #expect(abs(after - before) < before * 0.01, "the lens went back: \(after) vs \(before)")
    }

    @Test func continuousAutofocusGivesASharpPictureAndIsSwitchedOffAgain() async throws {
        let (session, output, _) = try await Self.output(.init(initialLensPosition: 900))
        let sharp = SyntheticScene.image(size: Self.size).lumaGradientEnergy
        let focused = try await output.capturePhoto(with: Self.settings(.continuous))
        let after = try Self.sharpness(try await output.capturePhoto(with: Self.settings(nil)))
        await session.stopRunning()
        #expect(focused.resolvedSettings.focus?.mode == .continuousAutoFocus)
        #expect(focused.resolvedSettings.focus?.autoFocusResult == nil)
        #expect(abs(try Self.sharpness(focused) - sharp) < sharp * 0.05)
        #expect(after < sharp * 0.5, "continuous autofocus is off again, the lens at 900: \(after)")
    }

    @Test func aScanThatCannotFindTheSubjectReportsFailedAndStillTakesThePhoto() async throws {
        let (session, output, _) = try await Self.output(.init(initialLensPosition: 200, autoFocusFindsSubject: false))
        let photo = try await output.capturePhoto(with: Self.settings(.once()))
        await session.stopRunning()
        #expect(photo.resolvedSettings.focus?.autoFocusResult == .failed)
        #expect(photo.resolvedSettings.focus?.lensPosition == 200)
        #expect(try Self.sharpness(photo) < SyntheticScene.image(size: Self.size).lumaGradientEnergy * 0.5)
    }

    @Test func aScanLongerThanTheTimeoutReportsTimedOut() async throws {
        // A scan of 6000 frames (100 s at 60 fps, longer when frames come slower under load):
        // told apart from the 0.1-second timeout even on a loaded machine, where the photo's own
        // frames and the lens's return took 7 s in one run.
        let (session, output, _) = try await Self.output(.init(initialLensPosition: 200, autoFocusFrames: 6000))
        let started = ContinuousClock.now
        let photo = try await output.capturePhoto(with: Self.settings(.once(timeout: .milliseconds(100))))
        let took = ContinuousClock.now - started
        await session.stopRunning()
        #expect(photo.resolvedSettings.focus?.autoFocusResult == .timedOut)
        #expect(took < .seconds(30), "waited for the scan (100 s) instead of the timeout: \(took)")
        #expect(photo.resolvedSettings.focus?.lensPosition == 200, "the scan had not moved the lens")
    }

    /// What a signal handler does mid-scan: the lens goes back at once, and later focus
    /// requests are refused.
    @Test func interruptingPutsTheLensBackAndRefusesFurtherFocus() async throws {
        let (session, output, device) = try await Self.output(.init(initialLensPosition: 100, autoFocusFrames: 60))
        let before = try Self.sharpness(try await output.capturePhoto(with: Self.settings(nil)))
        let scanning = try output.capturePhotos(with: Self.settings(.once(timeout: .seconds(5))))
        try await Task.sleep(for: .milliseconds(300))
        try device.interruptFocus()
        for try await photo in scanning {
            // The scan was abandoned when the lens was put back.
            #expect(photo.resolvedSettings.focus?.autoFocusResult == .failed)
            #expect(photo.resolvedSettings.focus?.lensPosition == 100)
        }
        let next = Self.settings(.manual(lensPosition: Double(Self.inFocus)))
        await #expect(throws: PhotoCaptureError(.focus(.interrupted), uniqueID: next.uniqueID)) {
            try await output.capturePhoto(with: next)
        }
        let after = try Self.sharpness(try await output.capturePhoto(with: Self.settings(nil)))
        await session.stopRunning()
        #expect(abs(after - before) < before * 0.01, "the lens went back: \(after) vs \(before)")
    }

    @Test func focusIsRejectedBeforeCaptureOnACameraWithoutFocusControls() async throws {
        let (session, output, device) = try await Self.output(nil)
        #expect(device.focusCapabilities == nil)
        #expect(!device.isFocusModeSupported(.autoFocus))
        for request in [FocusRequest.continuous, .manual(lensPosition: 10), .once()] {
            let settings = Self.settings(request)
            #expect(throws: PhotoCaptureError(.focus(.noFocusControls(device: "synthetic")), uniqueID: settings.uniqueID)) {
                try output.capturePhoto(with: settings, delegate: FailingDelegate())
            }
        }
        await session.stopRunning()
    }

    @Test func manualPositionsAreClampedAndRoundedWithAnAdjustment() async throws {
        let (session, output, _) = try await Self.output()
        func resolved(_ position: Double) throws -> ResolvedPhotoSettings {
            try output.resolvedSettings(for: Self.settings(.manual(lensPosition: position)))
        }
        #expect(try resolved(5000).focus?.requestedLensPosition == 1023)
        #expect(try resolved(5000).adjustments.contains(.lensPosition(requested: 5000, chosen: 1023)))
        #expect(try resolved(-3).focus?.requestedLensPosition == 0)
        #expect(try resolved(300.4).adjustments.contains(.lensPosition(requested: 300.4, chosen: 300)))
        #expect(try !resolved(300).adjustments.contains { if case .lensPosition = $0 { true } else { false } })
        // Resolution cannot know where the lens will go.
        #expect(try resolved(300).focus?.lensPosition == nil)

        // NaN equals nothing, not even itself: the error's code is matched instead.
        let nan = Self.settings(.manual(lensPosition: .nan))
        let error = #expect(throws: PhotoCaptureError.self) { try output.resolvedSettings(for: nan) }
        guard case .focus(.invalidLensPosition(let value))? = error?.code else {
            Issue.record("expected invalidLensPosition, got \(String(describing: error))")
            return
        }
        #expect(value.isNaN && error?.uniqueID == nan.uniqueID)
        let zero = Self.settings(.once(timeout: .zero))
        #expect(throws: PhotoCaptureError(.focus(.invalidTimeout(.zero)), uniqueID: zero.uniqueID)) {
            try output.resolvedSettings(for: zero)
        }
        await session.stopRunning()
    }

    /// A bracket that sets focus is focused once, before its first member: every member is
    /// sharp, and afterwards the lens is back where it was.
    @Test func aBracketIsFocusedBeforeItsMembers() async throws {
        let (session, output, _) = try await Self.output(.init(initialLensPosition: 100))
        let before = try Self.sharpness(try await output.capturePhoto(with: Self.settings(nil)))
        var bracket = PhotoSettings(bracketedSettings: [-1.0, 0, 1].map { .autoExposure(exposureTargetBias: $0) }, format: .uncompressed)
        bracket.focus = .once()
        var members: [CapturePhoto] = []
        for try await photo in try output.capturePhotos(with: bracket) { members.append(photo) }
        var plain: [CapturePhoto] = []
        for try await photo in try output.capturePhotos(with: Self.settings(nil)) { plain.append(photo) }
        await session.stopRunning()

        #expect(members.count == 3)
        // The 0 EV member shows the scene's own exposure: as sharp as the scene itself.
        let sharp = SyntheticScene.image(size: Self.size).lumaGradientEnergy
        #expect(abs(try Self.sharpness(members[1]) - sharp) < sharp * 0.05)
        for member in members {
            #expect(member.resolvedSettings.focus?.autoFocusResult == .reached)
            #expect(member.resolvedSettings.focus?.lensPosition == Double(Self.inFocus))
            #expect(try Self.sharpness(member) > before * 3, "member \(member.sequenceCount)")
        }
        let after = try Self.sharpness(try #require(plain.first))
        #expect(abs(after - before) < before * 0.01, "the lens went back: \(after) vs \(before)")
    }
}

/// A delegate for requests that must be rejected before any callback.
private final class FailingDelegate: PhotoCaptureDelegate {
    func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings) {
        Issue.record("a rejected request began")
    }
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: (any Error)?) {
        Issue.record("a rejected request delivered a photo")
    }
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings, error: (any Error)?) {
        Issue.record("a rejected request finished")
    }
}
