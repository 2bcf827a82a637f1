import Codecs
import Foundation
import Glibc
import PhotoCapture
import Testing
import TestSupport

/// ``CaptureDevice/setDynamicAspectRatio(_:timeout:)`` and the zoom on the synthetic camera:
/// changes on a running session never restart the stream, the returned frame is the first one
/// after the change, and photos follow the framing of the moment they were requested (the V4L2
/// side is VividAspectTests).
@Suite struct DynamicAspectRatioTests {
    static let size = PixelSize(width: 1000, height: 750)
    static let framesPerSecond = 100

    /// CLOCK_MONOTONIC, the clock frame timestamps are on.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func running(mounting: SensorMounting = .upright) async throws -> (CaptureDevice, CaptureSession, PhotoOutput) {
        let device = CaptureDevice.synthetic(.init(sensorMounting: mounting, maximumSize: size, framesPerSecond: framesPerSecond))
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(device)
        try session.addOutput(output)
        try await session.startRunning()
        return (device, session, output)
    }

    /// A JPEG request; no pixel format keeps the one the session started with, so the stream
    /// has no reason to restart.
    static func settings(_ format: FramePixelFormat? = nil) -> PhotoSettings {
        var settings = PhotoSettings(format: .jpeg)
        settings.framePixelFormat = format
        return settings
    }

    @Test func switchingOnARunningSessionKeepsTheStreamAndMarksTheFirstFrame() async throws {
        let (device, session, output) = try await Self.running()
        let before = try await output.capturePhoto(with: Self.settings())
        #expect(before.resolvedSettings.framing.cropMethod == .none)
        #expect(before.pixelBuffer.size == Self.size)
        let streaming = await device.streamStatistics()
        #expect(streaming.isStreaming && streaming.starts == 1 && streaming.stops == 0 && streaming.hardwareCrop == nil)

        let asked = Self.now()
        let mark = try #require(try await device.setDynamicAspectRatio(.ratio1x1))
        let answered = Self.now()
        // The first frame whose exposure began after the change: later than the call, and the
        // frame before it began no later than the change (frames are 10 ms apart).
        let interval = UInt64(1_000_000_000 / Self.framesPerSecond)
        #expect(mark.timestamp > asked)
        #expect(mark.timestamp - interval <= answered)
        #expect(mark.sequence > before.frameSequence)
        #expect(device.dynamicAspectRatio == .ratio1x1)

        let square = try await output.capturePhoto(with: Self.settings())
        #expect(square.resolvedSettings.framing.cropMethod == .software)
        #expect(square.pixelBuffer.size == PixelSize(width: 750, height: 750))
        #expect(square.frameSequence >= mark.sequence && square.timestamp >= mark.timestamp)

        let zoomMark = try #require(try await device.setVideoZoomFactor(2))
        #expect(zoomMark.sequence > square.frameSequence)
        let zoomed = try await output.capturePhoto(with: Self.settings())
        #expect(zoomed.pixelBuffer.size == PixelSize(width: 374, height: 374))
        #expect(zoomed.resolvedSettings.framing.sensorCrop == PixelRect(x: 314, y: 188, size: PixelSize(width: 374, height: 374)))

        try await device.setFraming(aspectRatio: nil, videoZoomFactor: 1)
        let whole = try await output.capturePhoto(with: Self.settings())
        #expect(whole.pixelBuffer.size == Self.size)
        #expect(whole.resolvedSettings.framing.cropMethod == .none)

        // Five changes and four photos later the stream never stopped or restarted.
        let after = await device.streamStatistics()
        #expect(after.starts == streaming.starts && after.stops == streaming.stops && after.isStreaming)
        await session.stopRunning()
        #expect(await device.streamStatistics().stops == 1)
    }

    @Test func aRequestKeepsTheFramingItWasResolvedWith() async throws {
        let (device, session, output) = try await Self.running()
        try await device.setDynamicAspectRatio(.ratio1x1)
        let pending = try output.capturePhotos(with: Self.settings())
        try await device.setDynamicAspectRatio(.ratio16x9)
        var photos: [CapturePhoto] = []
        for try await photo in pending { photos.append(photo) }
        #expect(photos.first?.pixelBuffer.size == PixelSize(width: 750, height: 750))
        #expect(photos.first?.resolvedSettings.framing.aspectRatio == .ratio1x1)
        let wide = try await output.capturePhoto(with: Self.settings())
        #expect(wide.pixelBuffer.size == PixelSize(width: 1000, height: 562))
        await session.stopRunning()
    }

    @Test func zoomOutsideTheRangeIsRefusedAndChangesNothing() async throws {
        let (device, session, _) = try await Self.running()
        try await device.setVideoZoomFactor(1.5)
        for factor in [0.5, 0.999, 8.01, .infinity, .nan] {
            let error = await #expect(throws: PhotoCaptureError.self) { try await device.setVideoZoomFactor(factor) }
            if factor.isNaN {
                guard case .invalidZoomFactor(let value, 8)? = error?.code else { Issue.record("\(String(describing: error))"); continue }
                #expect(value.isNaN)
            } else {
                #expect(error?.code == .invalidZoomFactor(factor, maximum: 8))
            }
        }
        #expect(device.videoZoomFactor == 1.5)
        #expect(device.maxVideoZoomFactor == 8)
        try await device.setVideoZoomFactor(8)
        #expect(device.videoZoomFactor == 8)
        await session.stopRunning()
    }

    @Test func aRatioSetBeforeStartingAppliesFromTheFirstPhoto() async throws {
        let device = CaptureDevice.synthetic(.init(maximumSize: Self.size, framesPerSecond: Self.framesPerSecond))
        #expect(try await device.setDynamicAspectRatio(.ratio9x16) == nil, "not streaming: no frame to mark")
        #expect(!device.isHardwareCropSupported)
        #expect(device.formats.allSatisfy { $0.supportedDynamicAspectRatios == AspectRatio.supported })
        // A copy with another mounting wraps the same camera and shares its framing.
        let turned = device.overridingSensorMounting(SensorMounting(rotation: 90))
        #expect(turned.dynamicAspectRatio == .ratio9x16)
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(turned)
        try session.addOutput(output)
        try await session.startRunning()
        var settings = Self.settings()
        settings.previewDimensions = PixelSize(width: 320, height: 240)
        let photo = try await output.capturePhoto(with: settings)
        let resolved = photo.resolvedSettings
        // 9:16 upright from a sensor mounted at 90°: a 16:9 crop of the landscape frame, turned.
        #expect(resolved.framing.sensorCrop.size == PixelSize(width: 1000, height: 562))
        #expect(resolved.frameDimensions == Self.size)
        #expect(resolved.photoDimensions == PixelSize(width: 562, height: 1000))
        // The preview has the photo's shape inside its box.
        #expect(photo.previewPixelBuffer?.size == PixelSize(width: 135, height: 240))
        await session.stopRunning()
    }

    /// MJPEG frames are decoded for the crop (the camera's JPEG is kept only for whole frames),
    /// and every synthetic format, Bayer included, crops the same picture: the centre of the
    /// uncropped photo (and, but for Bayer, whose simulated sensor has its own response, the
    /// centre of the scene).
    @Test(arguments: CaptureDevice.syntheticPixelFormats)
    func everyFrameFormatIsCroppedToTheSamePicture(_ format: FramePixelFormat) async throws {
        let (device, session, output) = try await Self.running()
        let folder = try TemporaryDirectory("photocap-aspect")
        func decoded(_ photo: CapturePhoto) throws -> RGBImage {
            try ReferenceDecoder.djpeg(try folder.write([UInt8](photo.fileDataRepresentation()!), named: "\(UUID()).jpg"))
        }
        let whole = try decoded(try await output.capturePhoto(with: Self.settings(format)))
        try await device.setDynamicAspectRatio(.ratio1x1)
        let photo = try await output.capturePhoto(with: Self.settings(format))
        #expect(photo.encodingRoute == .encoded)
        #expect(photo.resolvedSettings.framing.cropMethod == .software)
        let square = try decoded(photo)
        let centre = PixelRect(x: 124, y: 0, size: PixelSize(width: 750, height: 750))
        #expect(square.size == centre.size)
        if square.size == centre.size {
            #expect(square.meanAbsoluteDifference(to: whole.cropped(to: centre)) <= 2, "\(format)")
            if !format.isBayer {
                #expect(square.meanAbsoluteDifference(to: SyntheticScene.image(size: Self.size).cropped(to: centre)) <= 4, "\(format)")
            }
        }
        await session.stopRunning()
    }

    /// RAW data is never cropped: a DNG alone is the whole frame; with a processed photo, only
    /// that photo is cropped.
    @Test func rawPhotosAreNeverCropped() async throws {
        let (device, session, output) = try await Self.running()
        try await device.setDynamicAspectRatio(.ratio1x1)
        let raw = try #require(device.formats.first { $0.pixelFormat.isBayer }?.pixelFormat)
        let dng = try await output.capturePhoto(with: PhotoSettings(rawPixelFormat: raw))
        #expect(dng.isRawPhoto && dng.rawDetails?.frame.size == Self.size)
        #expect(dng.resolvedSettings.framing.cropMethod == .none && dng.resolvedSettings.photoDimensions == Self.size)
        var photos: [CapturePhoto] = []
        for try await photo in try output.capturePhotos(with: PhotoSettings(rawPixelFormat: raw, processedFormat: .jpeg)) {
            photos.append(photo)
        }
        #expect(photos.count == 2)
        #expect(photos.first?.rawDetails?.frame.size == Self.size)
        #expect(photos.last?.pixelBuffer.size == PixelSize(width: 750, height: 750))
        #expect(photos.last?.resolvedSettings.framing.cropMethod == .software)
        await session.stopRunning()
    }

    @Test func aspectRatiosParseOnlyTheSupportedShapes() {
        #expect(AspectRatio(parsing: "16:9") == .ratio16x9)
        #expect(AspectRatio(parsing: "3:4") == .ratio3x4)
        for text in ["5:4", "16x9", "32:18", "1:", ":1", "", "1:1:1", "-1:1"] {
            #expect(AspectRatio(parsing: text) == nil, "\(text)")
        }
        #expect(AspectRatio.ratio3x4.transposed == .ratio4x3)
        #expect(AspectRatio.supported.map(\.description) == ["1:1", "3:4", "4:3", "9:16", "16:9"])
    }
}
