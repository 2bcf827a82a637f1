import Imaging

extension SettingsResolver {
    /// The box the DNG preview is fitted into when the request names none (the DNG
    /// specification's recommended thumbnail size).
    static let defaultRawThumbnailBox = PixelSize(width: 256, height: 256)

    /// The Bayer format a request for a RAW photo is captured in; nil when it asks for none.
    /// Throws, before capture, when the device has no Bayer format, the named one is not
    /// Bayer or not offered, or a different processed frame format is also named.
    func rawFrameFormat(for settings: PhotoSettings,
                        adjustments: inout [SettingsAdjustment]) throws(PhotoCaptureError) -> CaptureDevice.Format? {
        guard settings.isRawPhotoRequested else { return nil }
        func reject(_ code: PhotoCaptureError.Code) -> PhotoCaptureError { PhotoCaptureError(code, uniqueID: settings.uniqueID) }
        let offered = device.rawPixelFormats
        if let requested = settings.rawPixelFormat, !requested.isBayer { throw reject(.notARawPixelFormat(requested)) }
        guard let preferred = offered.first else {
            throw reject(.rawUnavailable(device: device.localizedName, available: device.formats.map(\.pixelFormat)))
        }
        let chosen: FramePixelFormat
        if let requested = settings.rawPixelFormat {
            guard offered.contains(requested) else { throw reject(.pixelFormatUnavailable(requested: requested, available: offered)) }
            chosen = requested
        } else {
            chosen = preferred
            adjustments.append(.rawPixelFormat(chosen: chosen))
        }
        if let frame = settings.framePixelFormat, frame != chosen {
            throw reject(.rawFrameFormatConflict(raw: chosen, frame: frame))
        }
        return device.format(for: chosen)
    }

    /// How the request's main photo is oriented: a DNG alone never has its pixels turned.
    func orientationPlan(for settings: PhotoSettings, rotationAngle: Int, mode: OrientationCompensation) -> OrientationPlan {
        settings.format == .dng
            ? .raw(mounting: device.sensorMounting, rotationAngle: rotationAngle)
            : OrientationPlan(mounting: device.sensorMounting, rotationAngle: rotationAngle, mode: mode)
    }

    /// What the DNG of a RAW request will be; nil without a RAW format.
    func rawPhotoSettings(_ format: CaptureDevice.Format?, frameSize: PixelSize, rotationAngle: Int,
                          thumbnailBox: PixelSize?) -> ResolvedRawPhotoSettings? {
        guard let format else { return nil }
        let plan = OrientationPlan.raw(mounting: device.sensorMounting, rotationAngle: rotationAngle)
        return ResolvedRawPhotoSettings(
            pixelFormat: format.pixelFormat, dimensions: frameSize, writtenOrientation: plan.writtenOrientation,
            displayedDimensions: plan.writtenOrientation.apply(to: frameSize),
            embeddedThumbnailDimensions: frameSize.aspectFit(within: thumbnailBox ?? Self.defaultRawThumbnailBox))
    }
}
