import Imaging

/// Turns a request into ``ResolvedPhotoSettings`` against one device, libcamera style: nearest
/// achievable values are chosen and recorded, impossible requests are rejected with a specific
/// error, all before any frame is taken.
struct SettingsResolver: Sendable {
    /// The largest thumbnail an EXIF APP1 segment (64 KiB) reliably holds.
    static let maximumEXIFThumbnail = PixelSize(width: 640, height: 640)

    let device: CaptureDevice
    let defaultCompensation: OrientationCompensation
    /// The output's ``PhotoOutput/maxPhotoQualityPrioritization``.
    let maxQualityPrioritization: PhotoQualityPrioritization

    init(device: CaptureDevice, defaultCompensation: OrientationCompensation,
         maxQualityPrioritization: PhotoQualityPrioritization = .balanced) {
        (self.device, self.defaultCompensation, self.maxQualityPrioritization) = (device, defaultCompensation, maxQualityPrioritization)
    }

    func resolve(_ settings: PhotoSettings) throws(PhotoCaptureError) -> ResolvedPhotoSettings {
        let id = settings.uniqueID
        func reject(_ code: PhotoCaptureError.Code) -> PhotoCaptureError { PhotoCaptureError(code, uniqueID: id) }
        var adjustments: [SettingsAdjustment] = []

        guard (1...100).contains(settings.quality) else { throw reject(.qualityOutOfRange(settings.quality)) }
        // Lossless: a quality the request set is not used, which it must be told.
        if settings.format == .tiff, settings.quality != PhotoSettings.defaultQuality {
            adjustments.append(.qualityIgnored(requested: settings.quality, format: settings.format))
        }
        do { try settings.metadata.validate() } catch { throw error.attributed(to: id) }

        // Flash.
        let flash: Bool
        switch settings.flashMode {
        case .off: flash = false
        case .on:
            guard device.hasFlash else { throw reject(.flashUnavailable) }
            flash = true
        case .auto:
            // Against the scene monitor's judgement; a device without a flash never fires one.
            flash = device.hasFlash && device.sceneMonitor.isFlashScene
            adjustments.append(.flashMode(requested: .auto, enabled: flash))
        }

        // Device rotation.
        guard Orientation(clockwiseDegrees: settings.rotationAngle) != nil else { throw reject(.invalidRotationAngle(settings.rotationAngle)) }
        let rotation = Orientation.normalizedDegrees(settings.rotationAngle)
        if rotation != settings.rotationAngle {
            adjustments.append(.rotationAngle(requested: settings.rotationAngle, chosen: rotation))
        }

        // Frame format and size.
        let rawFormat = try rawFrameFormat(for: settings, adjustments: &adjustments)
        let format: CaptureDevice.Format
        if let rawFormat {
            format = rawFormat
        } else if let requested = settings.framePixelFormat {
            guard let offered = device.format(for: requested) else {
                throw reject(.pixelFormatUnavailable(requested: requested, available: device.formats.map(\.pixelFormat)))
            }
            format = offered
        } else {
            guard let preferred = device.defaultFormat(fitting: settings.maxPhotoDimensions) else {
                throw reject(.noCapturableFormat)
            }
            format = preferred
            adjustments.append(.framePixelFormat(chosen: preferred.pixelFormat))
        }
        let frameSize: PixelSize
        if let box = settings.maxPhotoDimensions {
            guard !box.isEmpty else { throw reject(.invalidDimensions(box)) }
            frameSize = format.sizes.nearest(fitting: box)
            if frameSize != box { adjustments.append(.frameDimensions(requested: box, chosen: frameSize)) }
        } else {
            frameSize = format.sizes.largest
        }
        let framed: Framed
        do {
            framed = try self.framed(format.pixelFormat, frameSize: frameSize, rotationAngle: rotation, for: settings)
        } catch {
            throw error.attributed(to: id)
        }
        let crop = framed.crop

        // Orientation.
        let mode = settings.orientationCompensation.resolved(outputMode: defaultCompensation)
        let plan = orientationPlan(for: settings, rotationAngle: rotation, mode: mode)
        let photoSize = plan.pixelTransform.apply(to: crop.size)

        // Preview and thumbnail: the photo's aspect ratio inside the requested box.
        func fitted(_ box: PixelSize?, limit: PixelSize, tooLarge: (PixelSize) -> PhotoCaptureError.Code,
                    adjustment: (PixelSize, PixelSize) -> SettingsAdjustment) throws(PhotoCaptureError) -> PixelSize? {
            guard let box else { return nil }
            guard !box.isEmpty else { throw reject(.invalidDimensions(box)) }
            // Compare long side with long side so a landscape box fits a portrait photo.
            let (boxLong, boxShort) = (max(box.width, box.height), min(box.width, box.height))
            let (limitLong, limitShort) = (max(limit.width, limit.height), min(limit.width, limit.height))
            guard boxLong <= limitLong, boxShort <= limitShort else { throw reject(tooLarge(box)) }
            let size = photoSize.aspectFit(within: box)
            if size != box { adjustments.append(adjustment(box, size)) }
            return size
        }
        let preview = try fitted(settings.previewDimensions, limit: photoSize,
                                 tooLarge: { .previewLargerThanPhoto(preview: $0, photo: photoSize) },
                                 adjustment: { .previewDimensions(requested: $0, chosen: $1) })
        if settings.embeddedThumbnailDimensions != nil, !settings.format.supportsEmbeddedThumbnail {
            throw reject(.thumbnailUnsupported(settings.format))
        }
        let thumbnailLimit = PixelSize(width: min(photoSize.width, Self.maximumEXIFThumbnail.width),
                                       height: min(photoSize.height, Self.maximumEXIFThumbnail.height))
        let thumbnail = try fitted(settings.embeddedThumbnailDimensions, limit: thumbnailLimit,
                                   tooLarge: { .thumbnailTooLarge(requested: $0, limit: thumbnailLimit) },
                                   adjustment: { .thumbnailDimensions(requested: $0, chosen: $1) })

        let bracket = try BracketResolver(device: device).resolve(settings)
        adjustments += bracket.adjustments

        let focus = try resolvedFocus(for: settings, adjustments: &adjustments)

        let raw = rawPhotoSettings(rawFormat, frameSize: frameSize, rotationAngle: rotation,
                                   thumbnailBox: settings.embeddedThumbnailDimensions)
        let merging = try frameMerging(for: settings, raw: raw != nil, bracket: !bracket.members.isEmpty, focused: focus != nil)
        return ResolvedPhotoSettings(
            uniqueID: id, format: settings.format, quality: settings.quality,
            heicEncodingSpeed: settings.heicEncodingSpeed, framePixelFormat: format.pixelFormat,
            frameDimensions: framed.frameSize, cropRect: crop, photoDimensions: photoSize,
            displayedPhotoDimensions: plan.writtenOrientation.apply(to: photoSize),
            previewDimensions: preview,
            embeddedThumbnailDimensions: settings.format == .dng ? raw?.embeddedThumbnailDimensions : thumbnail,
            expectedPhotoCount: settings.photoCount * max(1, bracket.members.count),
            isFlashEnabled: flash, rotationAngle: rotation, sensorMounting: device.sensorMounting,
            orientationCompensation: mode, pixelTransform: plan.pixelTransform,
            writtenOrientation: plan.writtenOrientation,
            isSensorOrientationCompensationApplied: plan.isSensorCompensationApplied, adjustments: adjustments,
            bracketedSettings: bracket.members, framing: framed.framing, rawPhoto: raw, metadata: settings.metadata,
            focus: focus, frameMerging: merging)
    }

    /// The frames a processed photo will be merged from: checked against the output's maximum,
    /// one for RAW photos, bracket members and requests that focus, and for `.balanced` only in
    /// a dark scene.
    private func frameMerging(for settings: PhotoSettings, raw: Bool, bracket: Bool,
                              focused: Bool) throws(PhotoCaptureError) -> FrameMerging {
        let asked = settings.photoQualityPrioritization
        guard asked <= maxQualityPrioritization else {
            throw PhotoCaptureError(.qualityPrioritizationAboveMaximum(requested: asked, maximum: maxQualityPrioritization),
                                    uniqueID: settings.uniqueID)
        }
        if asked == .speed { return FrameMerging(asked, framesPlanned: 1) }
        if raw || settings.format == .dng { return FrameMerging(asked, framesPlanned: 1, limitation: .rawPhoto) }
        if bracket { return FrameMerging(asked, framesPlanned: 1, limitation: .bracket) }
        if focused { return FrameMerging(asked, framesPlanned: 1, limitation: .focusRequest) }
        if asked == .balanced {
            // Asked, not started: a monitor running on every session would cost each stream its analyses.
            guard let monitor = device.source.runningSceneMonitor else { return FrameMerging(asked, framesPlanned: 1, limitation: .sceneNotMonitored) }
            if !monitor.isFlashScene { return FrameMerging(asked, framesPlanned: 1, limitation: .sceneBright) }
        }
        return FrameMerging(asked, framesPlanned: 1 + asked.neighbours.total)
    }
}
