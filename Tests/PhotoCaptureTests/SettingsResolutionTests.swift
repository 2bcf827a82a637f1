import PhotoCapture
import Testing

/// The rules of PhotoSettings and their resolution (issue acceptance 4).
@Suite struct SettingsResolutionTests {
    /// A running session on a 1000x750 synthetic camera.
    static func output(mounting: SensorMounting = .upright,
                       framesPerSecond: Int = 120) async throws -> (CaptureSession, PhotoOutput) {
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(.synthetic(.init(sensorMounting: mounting, maximumSize: PixelSize(width: 1000, height: 750),
                                              framesPerSecond: framesPerSecond)))
        try session.addOutput(output)
        try await session.startRunning()
        return (session, output)
    }

    /// Every frame pixel format the output lists is one a request captures in; Apple's position
    /// of the synthetic camera, which faces no way, is unspecified.
    @Test func theListedFrameFormatsAreTheOnesARequestCapturesIn() async throws {
        let (session, output) = try await Self.output()
        let formats = output.availableFramePixelFormatTypes
        #expect(Set(formats).isSuperset(of: [.yuyv, .nv12, .rgb24, .mjpeg]), "the synthetic camera's formats: \(formats)")
        for format in formats {
            var settings = PhotoSettings()
            settings.framePixelFormat = format
            #expect(try output.resolvedSettings(for: settings).framePixelFormat == format)
        }
        #expect(session.input?.position == .unspecified)
        await session.stopRunning()
    }

    @Test func uniqueIDsIncreaseAndCopiesGetNewOnes() {
        let first = PhotoSettings()
        let second = PhotoSettings(format: .heic)
        let copy = PhotoSettings(from: second)
        #expect(first.uniqueID < second.uniqueID)
        #expect(second.uniqueID < copy.uniqueID)
        #expect(copy.format == .heic)
        // Many settings made at once from many tasks never share an ID.
        let ids = (0..<1000).map { _ in PhotoSettings().uniqueID }
        #expect(Set(ids).count == 1000)
        #expect(ids == ids.sorted())
    }

    @Test func reusedSettingsAreRejectedAndCopiesAccepted() async throws {
        let (session, output) = try await Self.output()
        let settings = PhotoSettings()
        _ = try await output.capturePhoto(with: settings)
        let reuse = #expect(throws: PhotoCaptureError.self) { try output.capturePhotos(with: settings) }
        #expect(reuse?.code == .settingsReused)
        #expect(reuse?.uniqueID == settings.uniqueID)
        let copy = PhotoSettings(from: settings)
        let photo = try await output.capturePhoto(with: copy)
        #expect(photo.resolvedSettings.uniqueID == copy.uniqueID)
        await session.stopRunning()
    }

    /// Every impossible request is refused before capture, naming the reason and the request.
    @Test func impossibleRequestsAreRejectedWithTheirReason() async throws {
        let (session, output) = try await Self.output()
        let photo = PixelSize(width: 1000, height: 750)
        let cases: [(String, (inout PhotoSettings) -> Void, PhotoCaptureError.Code)] = [
            ("quality 0", { $0.quality = 0 }, .qualityOutOfRange(0)),
            ("quality 101", { $0.quality = 101 }, .qualityOutOfRange(101)),
            ("flash on without flash", { $0.flashMode = .on }, .flashUnavailable),
            ("rotation 45", { $0.rotationAngle = 45 }, .invalidRotationAngle(45)),
            ("pixel format not offered", { $0.framePixelFormat = .grey },
             .pixelFormatUnavailable(requested: .grey, available: CaptureDevice.syntheticPixelFormats)),
            ("preview larger than photo", { $0.previewDimensions = PixelSize(width: 2000, height: 1500) },
             .previewLargerThanPhoto(preview: PixelSize(width: 2000, height: 1500), photo: photo)),
            ("thumbnail in TIFF", { $0.format = .tiff; $0.embeddedThumbnailDimensions = PixelSize(width: 160, height: 120) },
             .thumbnailUnsupported(.tiff)),
            ("thumbnail too large", { $0.embeddedThumbnailDimensions = PixelSize(width: 800, height: 600) },
             .thumbnailTooLarge(requested: PixelSize(width: 800, height: 600), limit: PixelSize(width: 640, height: 640))),
            ("empty preview", { $0.previewDimensions = PixelSize(width: 0, height: 10) },
             .invalidDimensions(PixelSize(width: 0, height: 10))),
        ]
        for (name, change, code) in cases {
            var settings = PhotoSettings()
            change(&settings)
            let error = #expect(throws: PhotoCaptureError.self, "\(name)") { try output.capturePhotos(with: settings) }
            #expect(error?.code == code, "\(name)")
            #expect(error?.uniqueID == settings.uniqueID, "\(name)")
            #expect(error?.description.hasPrefix("request \(settings.uniqueID): ") == true, "\(name)")
        }
        await session.stopRunning()
    }

    @Test func notRunningAndNotConnectedAreRejected() async throws {
        let output = PhotoOutput()
        let detached = #expect(throws: PhotoCaptureError.self) { try output.capturePhotos(with: PhotoSettings()) }
        #expect(detached?.code == .notConnected)
        let session = CaptureSession()
        try session.addInput(.synthetic())
        try session.addOutput(output)
        let stopped = #expect(throws: PhotoCaptureError.self) { try output.capturePhotos(with: PhotoSettings()) }
        #expect(stopped?.code == .sessionNotRunning)
        #expect(throws: PhotoCaptureError(.outputAlreadyAttached)) { try session.addOutput(output) }
        #expect(throws: PhotoCaptureError(.inputAlreadySet)) { try session.addInput(.synthetic()) }
    }

    @Test func adjustmentsAreListedAndTheIDCarriedOver() async throws {
        let (session, output) = try await Self.output()
        var settings = PhotoSettings(format: .jpeg)
        settings.maxPhotoDimensions = PixelSize(width: 641, height: 481)
        settings.previewDimensions = PixelSize(width: 320, height: 320)
        settings.embeddedThumbnailDimensions = PixelSize(width: 160, height: 160)
        settings.flashMode = .auto
        settings.rotationAngle = -90
        settings.framePixelFormat = .nv12
        let resolved = try output.resolvedSettings(for: settings)
        #expect(resolved.uniqueID == settings.uniqueID)
        #expect(resolved.frameDimensions == PixelSize(width: 640, height: 480))
        #expect(resolved.photoDimensions == PixelSize(width: 640, height: 480))
        #expect(resolved.previewDimensions == PixelSize(width: 320, height: 240))
        #expect(resolved.embeddedThumbnailDimensions == PixelSize(width: 160, height: 120))
        #expect(resolved.isFlashEnabled == false)
        #expect(resolved.rotationAngle == 270)
        #expect(resolved.expectedPhotoCount == 1)
        #expect(resolved.adjustments == [
            .flashMode(requested: .auto, enabled: false),
            .rotationAngle(requested: -90, chosen: 270),
            .frameDimensions(requested: PixelSize(width: 641, height: 481), chosen: PixelSize(width: 640, height: 480)),
            .previewDimensions(requested: PixelSize(width: 320, height: 320), chosen: PixelSize(width: 320, height: 240)),
            .thumbnailDimensions(requested: PixelSize(width: 160, height: 160), chosen: PixelSize(width: 160, height: 120)),
        ])
        // Resolving does not use the ID up; capturing does, and reports the same resolution.
        let photo = try await output.capturePhoto(with: settings)
        #expect(photo.resolvedSettings == resolved)
        await session.stopRunning()
    }

    /// A TIFF is lossless: a quality the request set is listed as not used, as the other
    /// values resolved otherwise are; the default quality, which nobody asked for, is not.
    @Test func aTIFFSaysItsQualityIsNotUsed() async throws {
        let (session, output) = try await Self.output()
        // A frame format named, so the device's default is not an adjustment too.
        func settings(_ format: PhotoFormat, quality: Int? = nil) -> PhotoSettings {
            var settings = PhotoSettings(format: format)
            settings.framePixelFormat = .nv12
            if let quality { settings.quality = quality }
            return settings
        }
        let resolved = try output.resolvedSettings(for: settings(.tiff, quality: 50))
        #expect(resolved.adjustments == [.qualityIgnored(requested: 50, format: .tiff)])
        #expect(resolved.adjustments.map(\.description) == ["quality 50 → not used (TIFF is lossless)"])
        #expect(try output.resolvedSettings(for: settings(.tiff)).adjustments == [])
        #expect(try output.resolvedSettings(for: settings(.jpeg, quality: 50)).adjustments == [])
        await session.stopRunning()
    }

    /// The orientation rule's worked examples (Docs.docc/Architecture.md), as resolved settings state them.
    @Test func orientationIsResolvedByTheRule() async throws {
        let (session, output) = try await Self.output(mounting: SensorMounting(rotation: 90))
        func resolve(rotation: Int, mode: OrientationCompensation) throws -> ResolvedPhotoSettings {
            var settings = PhotoSettings()
            settings.rotationAngle = rotation
            settings.orientationCompensation = .mode(mode)
            return try output.resolvedSettings(for: settings)
        }
        let on0 = try resolve(rotation: 0, mode: .sensor)
        #expect(on0.pixelTransform == .left && on0.writtenOrientation == .up)
        #expect(on0.photoDimensions == PixelSize(width: 750, height: 1000))
        #expect(on0.isSensorOrientationCompensationApplied)
        let off0 = try resolve(rotation: 0, mode: .off)
        #expect(off0.pixelTransform == .up && off0.writtenOrientation == .left)
        #expect(off0.photoDimensions == PixelSize(width: 1000, height: 750))
        #expect(off0.displayedPhotoDimensions == PixelSize(width: 750, height: 1000))
        #expect(!off0.isSensorOrientationCompensationApplied)
        let on90 = try resolve(rotation: 90, mode: .sensor)
        #expect(on90.pixelTransform == .left && on90.writtenOrientation == .right)
        let off90 = try resolve(rotation: 90, mode: .off)
        #expect(off90.pixelTransform == .up && off90.writtenOrientation == .up)
        let upright = try resolve(rotation: 180, mode: .upright)
        #expect(upright.pixelTransform == .right && upright.writtenOrientation == .up)
        // The output's default follows isCameraSensorOrientationCompensationEnabled.
        output.isCameraSensorOrientationCompensationEnabled = false
        #expect(try output.resolvedSettings(for: PhotoSettings()).orientationCompensation == .off)
        var overriding = PhotoSettings()
        overriding.orientationCompensation = .mode(.sensor)
        #expect(try output.resolvedSettings(for: overriding).orientationCompensation == .sensor)
        overriding.orientationCompensation = .outputDefault
        #expect(try output.resolvedSettings(for: overriding).orientationCompensation == .off)
        await session.stopRunning()
    }
}
