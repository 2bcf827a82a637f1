import Foundation
import PhotoCapture
import Testing
import V4L2
import V4L2Testing

/// The V4L2 focus path on the host: ``FakeV4L2Driver`` with a lens exposes
/// `focus_automatic_continuous`, `focus_absolute`, `auto_focus_start` and `auto_focus_status`
/// (vivid has none), and records every control write, so what photocap sets, reads back and
/// restores is judged by the driver's side.
@Suite(.serialized) struct FocusV4L2FakeDriverTests {
    static let focusAuto = UInt32(0x009a_090c)      // V4L2_CID_FOCUS_AUTO
    static let focusAbsolute = UInt32(0x009a_090a)  // V4L2_CID_FOCUS_ABSOLUTE
    static let autoFocusStart = UInt32(0x009a_091c) // V4L2_CID_AUTO_FOCUS_START

    static func session(_ fake: FakeV4L2Driver) async throws -> (CaptureSession, PhotoOutput, CaptureDevice) {
        let device = try CaptureDevice.v4l2(path: "/dev/fake0", driver: fake)
        let (session, output) = try await runningSession(device)
        // Generous: the suite runs beside others on 2 cores.
        output.frameTimeout = .seconds(15)
        return (session, output, device)
    }

    static func settings(_ focus: FocusRequest) -> PhotoSettings {
        var settings = PhotoSettings(format: .uncompressed)
        settings.focus = focus
        return settings
    }

    @Test func theCapabilitiesComeFromTheControlQuery() throws {
        let fake = FakeV4L2Driver(lens: .init(minimum: 10, maximum: 250, step: 5))
        let device = try CaptureDevice.v4l2(path: "/dev/fake0", driver: fake)
        let capabilities = try #require(device.focusCapabilities)
        #expect(capabilities.supportedFocusModes == [.locked, .autoFocus, .continuousAutoFocus])
        #expect(capabilities.lensPosition == ExposureControlRange(control: "focus_absolute", minimum: 10, maximum: 250, step: 5))
        #expect(try CaptureDevice.v4l2(path: "/dev/fake0", driver: FakeV4L2Driver()).focusCapabilities == nil)
    }

    /// The controls a V4L2 camera lists and sets come out in the capture layer's own terms: the
    /// fake's four focus controls, by the types and flags its table declares.
    @Test func theControlsAreListedAndSetInNeutralKinds() throws {
        let fake = FakeV4L2Driver(lens: .init(minimum: 10, maximum: 250, step: 5, position: 40))
        let device = try CaptureDevice.v4l2(path: "/dev/fake0", driver: fake)
        let controls = Dictionary(uniqueKeysWithValues: try device.controls().map { ($0.key, $0) })
        let position = try #require(controls["focus_absolute"])
        #expect(position.controlKind == .integer && position.isVolatile && !position.isReadOnly)
        #expect(position.minimum == 10 && position.maximum == 250 && position.step == 5 && position.value == 40)
        #expect(controls["focus_automatic_continuous"]?.controlKind == .boolean)
        let start = try #require(controls["auto_focus_start"])
        #expect(start.controlKind == .button && start.value == nil)
        let status = try #require(controls["auto_focus_status"])
        #expect(status.controlKind == .bitmask && status.isReadOnly)

        #expect(try device.setControl("focus_absolute", to: "82").value == 80, "the fake rounds to its step")
        let pressed = try device.setControl("auto_focus_start", to: "")
        #expect(pressed.controlKind == .button && pressed.value == nil)
        #expect(fake.record.controlWrites == [.init(id: Self.focusAbsolute, value: 80), .init(id: Self.autoFocusStart, value: 1)])
        #expect(throws: PhotoCaptureError(.invalidControl("auto_focus_status is read-only"))) {
            try device.setControl("auto_focus_status", to: "1")
        }
    }

    @Test func aCameraWithoutFocusControlsRejectsFocusBeforeCapture() async throws {
        let fake = FakeV4L2Driver()
        let (session, output, _) = try await Self.session(fake)
        let settings = Self.settings(.once())
        #expect(throws: PhotoCaptureError(.focus(.noFocusControls(device: "/dev/fake0")), uniqueID: settings.uniqueID)) {
            _ = try output.capturePhotos(with: settings)
        }
        await session.stopRunning()
        #expect(fake.record.controlWrites.isEmpty)
    }

    /// Continuous autofocus on at the start: a manual request switches it off, places the lens
    /// (rounded to the control's step), reads the position back, and restores both afterwards,
    /// the lens first.
    @Test func aManualPositionIsSetReadBackAndRestored() async throws {
        let fake = FakeV4L2Driver(lens: .init(step: 5, inFocus: 120, continuous: true))
        let (session, output, _) = try await Self.session(fake)
        let photo = try await output.capturePhoto(with: Self.settings(.manual(lensPosition: 82)))
        await session.stopRunning()

        let focus = try #require(photo.resolvedSettings.focus)
        #expect(focus.requestedLensPosition == 80 && focus.lensPosition == 80)
        #expect(photo.resolvedSettings.adjustments.contains(.lensPosition(requested: 82, chosen: 80)))
        #expect(fake.record.controlWrites == [
            .init(id: Self.focusAuto, value: 0), .init(id: Self.focusAbsolute, value: 80),
            // Put back: the position continuous autofocus had, then autofocus itself.
            .init(id: Self.focusAbsolute, value: 120), .init(id: Self.focusAuto, value: 1),
        ])
        #expect(fake.lens?.continuous == true)
    }

    /// A driver that refuses every control write: the request ends with the refusal, which
    /// carries photocap's error for the failed call (and through it the V4L2 error), not its text.
    @Test func aRefusedFocusControlCarriesTheCallsError() async throws {
        let fake = FakeV4L2Driver(lens: .init(inFocus: 120, position: 0, autoFocusMilliseconds: 60))
        let (session, output, _) = try await Self.session(fake)
        fake.refuseControlWrites()
        let settings = Self.settings(.once())
        let error = await #expect(throws: PhotoCaptureError.self) { try await output.capturePhoto(with: settings) }
        await session.stopRunning()
        guard case .focus(.controlRefused(let device, let control, let cause))? = error?.code else {
            Issue.record("not a refused focus control: \(String(describing: error))")
            return
        }
        #expect(device == "/dev/fake0" && ["focus_automatic_continuous", "auto_focus_start"].contains(control), "\(control)")
        let carried = cause.underlyingError as? V4L2Error
        let call = try #require(carried, "\(cause)")
        #expect(call.errno == .ioError, "\(call)")
        #expect(PhotoCaptureError(error!.code).description == "/dev/fake0 refused \(control): \(cause)")
        #expect(fake.record.controlWrites.isEmpty)
    }

    /// A one-shot scan: autofocus off, the start button pressed, the status read until it
    /// leaves BUSY; afterwards the lens goes back to where it was, then the autofocus switch.
    @Test func aOneShotScanIsWaitedForAndItsResultReported() async throws {
        let fake = FakeV4L2Driver(lens: .init(inFocus: 120, position: 0, autoFocusMilliseconds: 60))
        let (session, output, _) = try await Self.session(fake)
        let photo = try await output.capturePhoto(with: Self.settings(.once()))
        await session.stopRunning()

        let focus = try #require(photo.resolvedSettings.focus)
        #expect(focus.autoFocusResult == .reached)
        #expect(focus.lensPosition == 120)
        #expect(fake.record.controlWrites == [
            .init(id: Self.focusAuto, value: 0), .init(id: Self.autoFocusStart, value: 1),
            .init(id: Self.focusAbsolute, value: 0), .init(id: Self.focusAuto, value: 0),
        ])
        #expect(fake.lens?.position == 0 && fake.lens?.continuous == false)
    }

    /// Continuous autofocus switched on for the shot over a lens placed by hand: afterwards it
    /// is switched off first, then the lens goes back to its place.
    @Test func continuousAutofocusIsSwitchedOnAndTheHandPlacedLensRestored() async throws {
        let fake = FakeV4L2Driver(lens: .init(inFocus: 120, position: 45))
        let (session, output, _) = try await Self.session(fake)
        let photo = try await output.capturePhoto(with: Self.settings(.continuous))
        await session.stopRunning()
        #expect(photo.resolvedSettings.focus?.mode == .continuousAutoFocus)
        #expect(photo.resolvedSettings.focus?.lensPosition == 120)
        #expect(fake.record.controlWrites == [
            .init(id: Self.focusAuto, value: 1), .init(id: Self.focusAuto, value: 0), .init(id: Self.focusAbsolute, value: 45),
        ])
        #expect(fake.lens?.position == 45 && fake.lens?.continuous == false)
    }

    @Test func aFailedScanIsReported() async throws {
        let fake = FakeV4L2Driver(lens: .init(position: 30, autoFocusMilliseconds: 20, autoFocusFinds: false))
        let (session, output, _) = try await Self.session(fake)
        let photo = try await output.capturePhoto(with: Self.settings(.once()))
        await session.stopRunning()
        #expect(photo.resolvedSettings.focus?.autoFocusResult == .failed)
        #expect(photo.resolvedSettings.focus?.lensPosition == 30)
    }
}
