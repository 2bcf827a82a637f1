import Codecs
import Foundation
import Glibc
import PhotoCapture
import Testing
import TestSupport

/// Dynamic aspect ratio and zoom against the kernel's vivid driver,
/// in the VM that Tests/V4L2Integration/run-vivid-vm.sh boots. vivid's webcam input (0) cannot
/// crop; its HDMI input (3) can (V4L2_SEL_TGT_CROP, with its crop, compose and scaler controls
/// at their defaults) and shows 1280x720 by default. Reference pictures come from v4l2-ctl.
@Suite(.serialized, .vivid)
struct VividAspectTests {
    static let webcam = 0
    static let hdmi = 3
    static let hd = PixelSize(width: 1280, height: 720)
    /// 1:1 of 1280x720: the middle 720 columns.
    static let square = PixelRect(x: 280, y: 0, size: PixelSize(width: 720, height: 720))
    /// RGB frames and the 75% colour bars: JPEG q90 measures about 1 (see VividDeviceTests);
    /// the bars scaled instead of cropped, or cropped elsewhere, are tens off.
    static let tolerance = 2.0

    let path = Vivid.path
    let folder: TemporaryDirectory

    init() throws {
        folder = try Vivid.reloaded(folder: "vivid-aspect")
        try Vivid.set(["test_pattern": "0"])
    }

    static func settings() -> PhotoSettings {
        var settings = PhotoSettings(format: .jpeg)
        settings.framePixelFormat = .rgb24
        settings.maxPhotoDimensions = hd
        return settings
    }

    /// CLOCK_MONOTONIC, the clock V4L2 buffers are stamped with.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    func decoded(_ photo: CapturePhoto) throws -> RGBImage {
        let file = try folder.write([UInt8](photo.fileDataRepresentation()!), named: "\(UUID().uuidString).jpg")
        #expect(try ExternalTool.exiftoolValidationProblems(file) == [])
        return try ReferenceDecoder.djpeg(file)
    }

    func expectPicture(_ photo: CapturePhoto, is expected: RGBImage, _ label: String) throws {
        let image = try decoded(photo)
        #expect(image.size == expected.size, "\(label): \(image.size)")
        guard image.size == expected.size else { return }
        let difference = image.meanAbsoluteDifference(to: expected)
        #expect(difference <= Self.tolerance, "\(label): differs by \(difference)")
    }

    /// A running session on `device`, stopped after `body`.
    func withSession<T>(_ device: CaptureDevice, _ body: (PhotoOutput) async throws -> T) async throws -> T {
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(device)
        try session.addOutput(output)
        try await session.startRunning()
        return try await stoppingAfterwards(session) { try await body(output) }
    }

    /// The driver's crop, as v4l2-ctl reads it (a third party's view of the device).
    func driverCrop() throws -> String {
        try ExternalTool.run("v4l2-ctl", ["-d", path, "--get-selection", "target=crop"]).checked().text
    }

    @Test func theHDMIInputCropsInTheDriver() async throws {
        let device = try CaptureDevice.v4l2(path: path, input: Self.hdmi)
        #expect(device.v4l2Details?.inputName == "HDMI 0")
        #expect(device.isHardwareCropSupported)
        #expect(device.v4l2Details?.cropBounds == PixelRect(covering: Self.hd))
        // vivid's scaler offers up to 16384x8640; a still camera offers the picture unscaled.
        #expect(device.format(for: .rgb24)?.sizes.largest == Self.hd)
        let reference = try Vivid.referenceFrame(width: 1280, height: 720, in: folder.url)

        // acceptance 3: 1:1 at 1280x720 is a 720x720 photo, cropped by the driver.
        #expect(try await device.setDynamicAspectRatio(.ratio1x1) == nil)
        try await withSession(device) { output in
            let photo = try await output.capturePhoto(with: Self.settings())
            let framing = photo.resolvedSettings.framing
            #expect(framing.cropMethod == .hardware)
            #expect(framing.hardwareCropRect == Self.square)
            #expect(framing.sensorCrop == Self.square && framing.uncroppedFrameDimensions == Self.hd)
            #expect(photo.resolvedSettings.frameDimensions == Self.square.size)
            #expect(photo.resolvedSettings.cropRect == PixelRect(covering: Self.square.size))
            #expect(photo.pixelBuffer.size == Self.square.size)
            let streamingCrop = try driverCrop()
            #expect(streamingCrop.contains("Left 280, Top 0, Width 720, Height 720"), "\(streamingCrop)")
            #expect(await device.streamStatistics().hardwareCrop == Self.square)
            try expectPicture(photo, is: reference.cropped(to: Self.square), "1:1 hardware")
        }
        // Stopped: the driver's crop is reset, not left behind for the next program.
        let stoppedCrop = try driverCrop()
        #expect(stoppedCrop.contains("Left 0, Top 0, Width 1280, Height 720"), "\(stoppedCrop)")

        // Zoom after the ratio, in the driver too: 16:9 at 2x is the middle 640x360.
        try await device.setFraming(aspectRatio: .ratio16x9, videoZoomFactor: 2)
        try await withSession(device) { output in
            let photo = try await output.capturePhoto(with: Self.settings())
            let middle = PixelRect(x: 320, y: 180, size: PixelSize(width: 640, height: 360))
            #expect(photo.resolvedSettings.framing.cropMethod == .hardware)
            #expect(photo.resolvedSettings.framing.hardwareCropRect == middle)
            try expectPicture(photo, is: reference.cropped(to: middle), "16:9 zoom 2 hardware")
        }
        // A crop another program left behind is reset when photocap streams uncropped.
        try ExternalTool.run("v4l2-ctl", ["-d", path, "--set-selection", "target=crop,left=0,top=0,width=640,height=360"]).checked()
        try await device.setFraming(aspectRatio: nil, videoZoomFactor: 1)
        try await withSession(device) { output in
            let photo = try await output.capturePhoto(with: Self.settings())
            #expect(photo.resolvedSettings.framing.cropMethod == .none)
            try expectPicture(photo, is: reference, "uncropped after another program's crop")
        }
    }

    /// acceptance 2: a switch on a running session records no STREAMOFF, and the frame it returns
    /// is the first whose exposure began after the switch.
    @Test(arguments: [webcam, hdmi])
    func switchingOnARunningSessionRecordsNoStreamOff(input: Int) async throws {
        let device = try CaptureDevice.v4l2(path: path, input: input)
        #expect(device.isHardwareCropSupported == (input == Self.hdmi))
        let reference = try Vivid.referenceFrame(width: 1280, height: 720, in: folder.url)
        try await withSession(device) { output in
            let whole = try await output.capturePhoto(with: Self.settings())
            #expect(whole.resolvedSettings.framing.cropMethod == .none)
            let running = await device.streamStatistics()
            #expect(running.isStreaming)

            let asked = Self.now()
            let mark = try #require(try await device.setDynamicAspectRatio(.ratio1x1))
            let square = try await output.capturePhoto(with: Self.settings())
            #expect(square.resolvedSettings.framing.cropMethod == .software, "a running stream is never cropped anew by the driver")
            #expect(square.pixelBuffer.size == Self.square.size)
            #expect(mark.sequence > whole.frameSequence && mark.timestamp > asked)
            #expect(square.frameSequence >= mark.sequence && square.timestamp >= mark.timestamp)
            // The first frame after the switch: it began less than two frame intervals after it.
            // Required, not expected: out of order, the UInt64 subtractions below would trap.
            try #require(square.frameSequence > whole.frameSequence && square.timestamp > whole.timestamp && mark.timestamp > asked)
            let interval = (square.timestamp - whole.timestamp) / (square.frameSequence - whole.frameSequence)
            #expect(mark.timestamp - asked < 2 * interval, "mark \(mark), asked \(asked), interval \(interval)")
            try expectPicture(square, is: reference.cropped(to: Self.square), "1:1 software on input \(input)")

            try await device.setVideoZoomFactor(1.5)
            let zoomed = try await output.capturePhoto(with: Self.settings())
            #expect(zoomed.pixelBuffer.size == PixelSize(width: 480, height: 480))
            try expectPicture(zoomed, is: reference.cropped(to: PixelRect(x: 400, y: 120, size: PixelSize(width: 480, height: 480))),
                              "1:1 zoom 1.5 on input \(input)")

            let after = await device.streamStatistics()
            #expect(after.stops == running.stops, "STREAMOFF during the switches: \(running) → \(after)")
            #expect(after.starts == running.starts)
        }
    }

    /// The one exception, documented on setDynamicAspectRatio: a stream the driver was cropping
    /// restarts once, without its crop, so that later changes need no restart.
    @Test func aDriverCroppedStreamRestartsOnceWithoutItsCrop() async throws {
        let device = try CaptureDevice.v4l2(path: path, input: Self.hdmi)
        let reference = try Vivid.referenceFrame(width: 1280, height: 720, in: folder.url)
        try await device.setDynamicAspectRatio(.ratio1x1)
        try await withSession(device) { output in
            let square = try await output.capturePhoto(with: Self.settings())
            #expect(square.resolvedSettings.framing.cropMethod == .hardware)
            let cropped = await device.streamStatistics()
            try await device.setDynamicAspectRatio(.ratio16x9)
            let restarted = await device.streamStatistics()
            #expect(restarted.stops == cropped.stops + 1 && restarted.hardwareCrop == nil)
            let wide = try await output.capturePhoto(with: Self.settings())
            #expect(wide.resolvedSettings.framing.cropMethod == .none)
            try expectPicture(wide, is: reference, "16:9 after the restart")
            try await device.setDynamicAspectRatio(.ratio3x4)
            let portrait = try await output.capturePhoto(with: Self.settings())
            #expect(portrait.resolvedSettings.framing.cropMethod == .software)
            #expect(portrait.pixelBuffer.size == PixelSize(width: 540, height: 720))
            #expect(await device.streamStatistics().stops == restarted.stops, "no second restart")
        }
    }

    /// An output that sees the whole field of view (the smart framing monitor's) on a stream the
    /// driver crops: its frames say they show the crop until the stream restarts once without
    /// it, then show everything; photos beside it are cropped in software.
    @Test func aWholeFieldOutputUncropsTheDriversStream() async throws {
        let device = try CaptureDevice.v4l2(path: path, input: Self.hdmi)
        let reference = try Vivid.referenceFrame(width: 1280, height: 720, in: folder.url)
        try await device.setDynamicAspectRatio(.ratio1x1)
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(device)
        try session.addOutput(output)
        try await session.startRunning()
        let square = try await output.capturePhoto(with: Self.settings())
        #expect(square.resolvedSettings.framing.cropMethod == .hardware)
        let cropped = await device.streamStatistics()
        let whole = VideoDataOutput()
        whole.deliversWholeFieldOfView = true
        try session.addOutput(whole)
        var fields: [(NormalizedRect, PixelSize)] = []
        for await frame in whole.frames() {
            fields.append((frame.fieldOfView, frame.size))
            if frame.fieldOfView == .whole || fields.count >= 100 { break }
        }
        let restarted = await device.streamStatistics()
        let photo = try await output.capturePhoto(with: Self.settings())
        session.removeOutput(whole)
        await session.stopRunning()
        // Only the driver's 1:1 crop, or everything: never a picture mislabelled.
        let squareField = NormalizedRect(x: 0.21875, y: 0, width: 0.5625, height: 1)
        #expect(fields.dropLast().allSatisfy { $0.0 == squareField && $0.1 == PixelSize(width: 720, height: 720) }, "\(fields)")
        #expect(fields.last.map { $0.0 == .whole && $0.1 == Self.hd } == true, "\(fields.suffix(3))")
        #expect(restarted.stops == cropped.stops + 1 && restarted.hardwareCrop == nil, "\(cropped) → \(restarted)")
        #expect(photo.resolvedSettings.framing.cropMethod == .software)
        try expectPicture(photo, is: reference.cropped(to: Self.square), "1:1 cropped in software beside the whole-field output")
    }

    @Test func theWebcamInputIsCroppedInSoftware() async throws {
        let device = try CaptureDevice.v4l2(path: path, input: Self.webcam)
        #expect(!device.isHardwareCropSupported && device.v4l2Details?.cropBounds == nil)
        let reference = try Vivid.referenceFrame(width: 1280, height: 720, in: folder.url)
        try await device.setDynamicAspectRatio(.ratio1x1)
        try await withSession(device) { output in
            let photo = try await output.capturePhoto(with: Self.settings())
            #expect(photo.resolvedSettings.framing.cropMethod == .software)
            #expect(photo.resolvedSettings.frameDimensions == Self.hd)
            try expectPicture(photo, is: reference.cropped(to: Self.square), "1:1 on the webcam input")
        }
    }

    @Test func anInputTheDeviceLacksIsNamed() throws {
        let error = #expect(throws: PhotoCaptureError.self) { try CaptureDevice.v4l2(path: path, input: 9) }
        #expect(error?.description.contains("has no input 9 (inputs: 0 (Webcam 0), 1 (TV 0), 2 (S-Video 0), 3 (HDMI 0))") == true,
                "\(String(describing: error))")
    }
}
