import Imaging

extension SettingsResolver {
    /// What a request captures once the device's aspect ratio and zoom are applied.
    struct Framed {
        /// The frame size the camera delivers (the crop's size when the driver crops).
        let frameSize: PixelSize
        /// The part of the delivered frame the conversion pass keeps.
        let crop: PixelRect
        /// The whole story, for ``ResolvedPhotoSettings/framing``.
        let framing: PhotoFraming
    }

    /// The crop for a `format` frame of `frameSize`, held at `rotationAngle`, for `settings`.
    ///
    /// The ratio is the upright picture's. The picture is the frame turned by the sensor mount's
    /// compensation followed by the device rotation — independent of the compensation mode, so
    /// a file without compensation still shows the ratio in a viewer — and when that turn is a
    /// quarter turn the crop on the sensor has the transposed ratio. The driver crops when the
    /// framing was set while the camera was not streaming, the input can be cropped, the frame
    /// is the input's whole picture (no scaling involved) and the driver has not refused before;
    /// otherwise the conversion pass crops. RAW data is never cropped, as it is never turned: a
    /// DNG alone is the whole frame, and with a processed photo only that photo is cropped, in
    /// software, so the frame stays whole for the DNG.
    func framed(_ format: FramePixelFormat, frameSize: PixelSize, rotationAngle: Int,
                for settings: PhotoSettings) throws(PhotoCaptureError) -> Framed {
        var state = device.framing.current
        if settings.format == .dng { (state.aspectRatio, state.zoomFactor) = (nil, 1) }
        let whole: PixelRect
        do {
            whole = try FrameConverter.effectiveCrop(nil, frameSize: frameSize)
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
        let crop = Self.centredCrop(aspectRatio: state.aspectRatio, zoom: state.zoomFactor, of: whole, frameSize: frameSize,
                                    mounting: device.sensorMounting, rotationAngle: rotationAngle)
        func framing(_ method: CropMethod, hardware: PixelRect? = nil) -> PhotoFraming {
            PhotoFraming(aspectRatio: state.aspectRatio, videoZoomFactor: state.zoomFactor,
                         uncroppedFrameDimensions: frameSize, sensorCrop: crop, cropMethod: method,
                         hardwareCropRect: hardware)
        }
        if crop == whole {
            return Framed(frameSize: frameSize, crop: whole, framing: framing(.none))
        }
        if state.mayCropInDriver, !settings.isRawPhotoRequested,
           let bounds = device.cropBounds,
           bounds.size == frameSize {
            let driverCrop = crop.offsetBy(dx: bounds.x, dy: bounds.y)
            return Framed(frameSize: crop.size, crop: PixelRect(covering: crop.size),
                          framing: framing(.hardware, hardware: driverCrop))
        }
        return Framed(frameSize: frameSize, crop: crop, framing: framing(.software))
    }

    /// The centred crop of a frame of `frameSize` that shows `aspectRatio` upright (the frame
    /// turned by the mounting's compensation and then `rotationAngle`) at `zoom`; `whole` when
    /// neither asks for a crop. Photos and video data frames share it.
    static func centredCrop(aspectRatio: AspectRatio?, zoom: Double, of whole: PixelRect, frameSize: PixelSize,
                            mounting: SensorMounting, rotationAngle: Int) -> PixelRect {
        guard aspectRatio != nil || zoom != 1 else { return whole }
        let upright = mounting.upright(rotationAngle: rotationAngle)
        let sensorRatio = aspectRatio.map { upright.swapsDimensions ? $0.transposed : $0 }
        return PixelRect.centred(ratio: sensorRatio.map { ($0.width, $0.height) } ?? (frameSize.width, frameSize.height),
                                 zoom: zoom, in: frameSize)
    }
}
