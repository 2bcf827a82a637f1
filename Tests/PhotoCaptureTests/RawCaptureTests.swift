import Codecs
import Foundation
import PhotoCapture
import Testing
import TestSupport

/// RAW requests through the public API: what the output offers, how requests resolve, the
/// delegate sequence of RAW + processed, and the rejections before capture.
@Suite struct RawCaptureTests {
    static let size = PixelSize(width: 600, height: 400)

    /// A running session on a `size` synthetic camera.
    static func output(mounting: SensorMounting = .upright) async throws -> (CaptureSession, PhotoOutput) {
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(.synthetic(.init(sensorMounting: mounting, maximumSize: size, framesPerSecond: 200)))
        try session.addOutput(output)
        try await session.startRunning()
        return (session, output)
    }

    /// A running session on a frame-file camera that replays one frame of `format`.
    static func frameFileOutput(_ format: FramePixelFormat) async throws -> (CaptureSession, PhotoOutput, TemporaryDirectory) {
        let folder = try TemporaryDirectory("raw-capture")
        let path = try folder.writeFrame(of: SyntheticScene.image(size: size), format: format, named: "frame.raw")
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(try .frameFile(path: path, format: format, size: size))
        try session.addOutput(output)
        try await session.startRunning()
        return (session, output, folder)
    }

    @Test func theSyntheticCameraOffersEveryBayerFormatAndKeepsNV12ForProcessedPhotos() async throws {
        let (session, output) = try await Self.output()
        try await stoppingAfterwards(session) {
            let raw = output.availableRawPhotoPixelFormatTypes
            #expect(Set(raw) == Set(FramePixelFormat.allCases.filter(\.isBayer)))
            #expect(raw.first == .srggb16)  // same size everywhere: most bits first, then device order
            #expect(raw.map(\.bitsPerSample) == raw.map(\.bitsPerSample).sorted(by: >))
            #expect(output.availablePhotoFormats.contains(.dng))

            let processed = try output.resolvedSettings(for: PhotoSettings(format: .jpeg))
            #expect(processed.framePixelFormat == .nv12)
            #expect(processed.rawPhoto == nil)
            #expect(processed.expectedPhotoCount == 1)

            let rawOnly = try output.resolvedSettings(for: PhotoSettings(format: .dng))
            #expect(rawOnly.framePixelFormat == .srggb16)
            #expect(rawOnly.adjustments.contains(.rawPixelFormat(chosen: .srggb16)))
            #expect(rawOnly.expectedPhotoCount == 1)
            #expect(rawOnly.rawPhoto?.pixelFormat == .srggb16)
            #expect(rawOnly.embeddedThumbnailDimensions == PixelSize(width: 256, height: 171))

            let both = try output.resolvedSettings(for: PhotoSettings(rawPixelFormat: .sgbrg10, processedFormat: .heic))
            #expect(both.framePixelFormat == .sgbrg10)
            #expect(both.format == .heic)
            #expect(both.expectedPhotoCount == 2)
            #expect(both.rawPhoto?.dimensions == Self.size)
        }
    }

    /// One request, two photos: RAW first, then the processed one, each with its own
    /// didFinishProcessingPhoto and the same uniqueID, then exactly one didFinishCapture.
    @Test func rawPlusProcessedDeliversTwoPhotosInOneRequest() async throws {
        let (session, output) = try await Self.output(mounting: SensorMounting(rotation: 90))
        try await stoppingAfterwards(session) {
            let delegate = RecordingDelegate()
            var settings = PhotoSettings(rawPixelFormat: .sbggr12, processedFormat: .jpeg)
            settings.rotationAngle = 270
            try output.capturePhoto(with: settings, delegate: delegate)
            try await delegate.waitForFinishes(1)
            let id = settings.uniqueID
            #expect(delegate.events.withLock { $0 } == [
                "willBegin \(id)", "willCapture \(id)", "didCapture \(id)", "didFinishProcessing \(id)",
                "didFinishProcessing \(id)", "didFinishCapture \(id)",
            ])
            #expect(delegate.finished.withLock { $0 } == [nil])
            let photos = delegate.photos.withLock { $0 }
            #expect(photos.map(\.isRawPhoto) == [true, false])
            #expect(photos.allSatisfy { $0.resolvedSettings.uniqueID == id && $0.photoCount == 2 && $0.sequenceCount == 1 })
            #expect(photos[0].frameSequence == photos[1].frameSequence)
            #expect(photos[0].encodingRoute == .dng && photos[1].encodingRoute == .developed)
            #expect(photos[0].timings.development > 0 && photos[1].timings.development > 0)

            let raw = try #require(photos[0].rawDetails)
            #expect(raw.frame.format == .sbggr12 && raw.frame.size == Self.size)
            #expect((raw.bitsPerSample, raw.storedBitsPerSample, raw.whiteLevel, raw.blackLevel) == (12, 16, 4095, 256))
            #expect(raw.cfaPattern == .bggr)
            // Sensor rotated 90° (turn 90° counter-clockwise to compensate), device held at 270°: the
            // whole correction is a half turn, in the DNG's Orientation; the processed photo has
            // the mounting in its pixels and the device part in its metadata.
            #expect(raw.writtenOrientation == .down)
            #expect(photos[0].writtenOrientation == .down)
            #expect(!photos[0].isSensorOrientationCompensationApplied)
            #expect(photos[1].writtenOrientation == .left)
            #expect(photos[1].isSensorOrientationCompensationApplied)
            #expect(photos[0].metadata["Orientation"] != nil)

            let dng = [UInt8](try #require(photos[0].fileDataRepresentation()))
            let info = try ImageFileInfo(data: dng)
            #expect(info.format == .dng && info.storedSize == Self.size && info.orientation == .down)
            #expect(info.thumbnailSize == photos[0].embeddedThumbnailDimensions)
            #expect(photos[0].pixelBuffer.size == info.thumbnailSize)
            #expect(try ImageFileInfo(data: [UInt8](try #require(photos[1].fileDataRepresentation()))).format == .jpeg)
        }
    }

    /// The async form yields both photos too.
    @Test func theAsyncSequenceYieldsTheRawAndTheProcessedPhoto() async throws {
        let (session, output) = try await Self.output()
        try await stoppingAfterwards(session) {
            var photos: [CapturePhoto] = []
            for try await photo in try output.capturePhotos(with: PhotoSettings(rawPixelFormat: .srggb8, processedFormat: .tiff)) {
                photos.append(photo)
            }
            #expect(photos.map(\.isRawPhoto) == [true, false])
            #expect(photos.map(\.resolvedSettings.format) == [.tiff, .tiff])
            // A RAW photo alone: one photo, with the preview developed from the RAW data, as stored.
            var rawOnly = PhotoSettings(format: .dng)
            rawOnly.previewDimensions = PixelSize(width: 300, height: 300)
            let single = try await output.capturePhoto(with: rawOnly)
            #expect(single.isRawPhoto && single.photoCount == 1)
            #expect(single.previewPixelBuffer?.size == PixelSize(width: 300, height: 200))
        }
    }

    /// Acceptance 5: impossible RAW requests are refused before capture, naming the request,
    /// and the delegate hears nothing.
    @Test func impossibleRawRequestsAreRefusedBeforeCapture() async throws {
        let (session, output, folder) = try await Self.frameFileOutput(.yuyv)
        defer { _ = folder }
        try await stoppingAfterwards(session) {
            #expect(output.availableRawPhotoPixelFormatTypes.isEmpty)
            #expect(!output.availablePhotoFormats.contains(.dng))
            let delegate = RecordingDelegate()
            for settings in [PhotoSettings(format: .dng), PhotoSettings(rawPixelFormat: .srggb10, processedFormat: .jpeg)] {
                let error = #expect(throws: PhotoCaptureError.self) { try output.capturePhoto(with: settings, delegate: delegate) }
                #expect(error?.code == .rawUnavailable(device: "frame file frame.raw", available: [.yuyv]))
                #expect(error?.uniqueID == settings.uniqueID)
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(delegate.events.withLock { $0.isEmpty })

            let (synthetic, bayer) = try await Self.output()
            try await stoppingAfterwards(synthetic) {
                func code(_ settings: PhotoSettings) -> PhotoCaptureError.Code? {
                    #expect(throws: PhotoCaptureError.self) { try bayer.resolvedSettings(for: settings) }?.code
                }
                #expect(code(PhotoSettings(rawPixelFormat: .nv12, processedFormat: .jpeg)) == .notARawPixelFormat(.nv12))
                var conflicting = PhotoSettings(rawPixelFormat: .srggb8, processedFormat: .jpeg)
                conflicting.framePixelFormat = .nv12
                #expect(code(conflicting) == .rawFrameFormatConflict(raw: .srggb8, frame: .nv12))
                var tooLarge = PhotoSettings(format: .dng)
                tooLarge.embeddedThumbnailDimensions = PixelSize(width: 2000, height: 2000)
                #expect(code(tooLarge) == .thumbnailTooLarge(requested: PixelSize(width: 2000, height: 2000),
                                                              limit: PixelSize(width: 600, height: 400)))

                // A Bayer camera that offers one RAW format refuses the others.
                let (single, eightBit, singleFolder) = try await Self.frameFileOutput(.sgrbg8)
                defer { _ = singleFolder }
                try await stoppingAfterwards(single) {
                    #expect(eightBit.availableRawPhotoPixelFormatTypes == [.sgrbg8])
                    let unavailable = #expect(throws: PhotoCaptureError.self) {
                        try eightBit.resolvedSettings(for: PhotoSettings(rawPixelFormat: .sgrbg12, processedFormat: .heic))
                    }
                    #expect(unavailable?.code == .pixelFormatUnavailable(requested: .sgrbg12, available: [.sgrbg8]))
                }
            }
        }
    }
}
