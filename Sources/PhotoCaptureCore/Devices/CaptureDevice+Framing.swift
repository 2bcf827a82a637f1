import Imaging

extension CaptureDevice.Format {
    /// The dynamic aspect ratios photos in this format can be cropped to: all of
    /// ``AspectRatio/supported``, since the crop happens in the conversion pass every format
    /// goes through (MJPEG frames are decoded for it).
    public var supportedDynamicAspectRatios: [AspectRatio] { AspectRatio.supported }
}

extension CaptureDevice {
    /// The largest ``videoZoomFactor``: 8, a crop of one eighth of the frame's width and height.
    public var maxVideoZoomFactor: Double { 8 }

    /// The shape photos are cropped to, in the upright picture; nil (the default) keeps the
    /// frame's own shape.
    public var dynamicAspectRatio: AspectRatio? { framing.current.aspectRatio }

    /// How far photos are zoomed in: a centred crop this many times narrower than the largest
    /// crop of ``dynamicAspectRatio``. 1 (the default) up to ``maxVideoZoomFactor``.
    public var videoZoomFactor: Double { framing.current.zoomFactor }

    /// Whether the driver can crop the selected input itself (V4L2 selection API; see
    /// ``V4L2Details/cropBounds``).
    public var isHardwareCropSupported: Bool { cropBounds != nil }

    /// Sets the shape of the photos that follow, as ``AspectRatio`` of the upright picture.
    ///
    /// The crop is the largest centred rectangle of that shape, turned to the sensor's
    /// orientation: with a landscape sensor mounted at 90°, or a device held in portrait, a
    /// 3:4 photo is a 4:3 rectangle of the frame, cropped and then turned. Requests resolved
    /// after this call use the new ratio; ``ResolvedPhotoSettings/framing`` says how.
    ///
    /// On a running session the stream keeps running: the crop is done in the conversion pass
    /// (``CropMethod/software``), so nothing stops or restarts — except a stream the driver was
    /// cropping (``CropMethod/hardware``), which is restarted once without its crop so that this
    /// and later changes can be cropped from whole frames. A ratio set while the camera is not
    /// streaming is cropped by the driver where it can (``isHardwareCropSupported``).
    ///
    /// - Parameters:
    ///   - ratio: the shape of the upright photo; nil keeps the frame's own shape.
    ///   - timeout: how long to wait for the first frame with the new ratio.
    /// - Returns: the first frame whose exposure began after the change, the first that photos
    ///   with the new ratio can come from; nil when the camera is not streaming.
    @discardableResult
    public func setDynamicAspectRatio(_ ratio: AspectRatio?,
                                      timeout: Duration = .seconds(5)) async throws(PhotoCaptureError) -> FrameMark? {
        try await changeFraming(timeout: timeout) { $0.aspectRatio = ratio }
    }

    /// Sets the zoom of the photos that follow, applied after the aspect ratio: the crop shrinks
    /// about its centre by `factor`. Behaves like ``setDynamicAspectRatio(_:timeout:)`` on a
    /// running session.
    ///
    /// Throws ``PhotoCaptureError/Code/invalidZoomFactor(_:maximum:)`` outside
    /// 1...``maxVideoZoomFactor``, changing nothing.
    @discardableResult
    public func setVideoZoomFactor(_ factor: Double,
                                   timeout: Duration = .seconds(5)) async throws(PhotoCaptureError) -> FrameMark? {
        try await setFraming(aspectRatio: dynamicAspectRatio, videoZoomFactor: factor, timeout: timeout)
    }

    /// Sets an aspect ratio and a zoom together, as a framing recommendation comes: the ratio is
    /// applied first, the zoom second, and both take effect on the same frame.
    @discardableResult
    public func setFraming(aspectRatio: AspectRatio?, videoZoomFactor factor: Double,
                           timeout: Duration = .seconds(5)) async throws(PhotoCaptureError) -> FrameMark? {
        guard factor.isFinite, factor >= 1, factor <= maxVideoZoomFactor else {
            throw PhotoCaptureError(.invalidZoomFactor(factor, maximum: maxVideoZoomFactor))
        }
        return try await changeFraming(timeout: timeout) {
            $0.aspectRatio = aspectRatio
            $0.zoomFactor = factor
        }
    }

    /// Whether the camera streams, and how often its stream started and stopped.
    public func streamStatistics() async -> StreamStatistics {
        await source.statistics()
    }

    private func changeFraming(timeout: Duration,
                               _ change: (inout FramingControl.State) -> Void) async throws(PhotoCaptureError) -> FrameMark? {
        let status = await source.statistics()
        // Taken before the change: every request resolved with the new framing comes later.
        let instant = MonotonicClock.now()
        framing.update {
            change(&$0)
            $0.allowsHardwareCrop = !status.isStreaming
        }
        guard status.isStreaming else { return nil }
        // Whole frames again, so this and every later change is a crop in the conversion pass.
        try await uncropStream()
        let delivered = try await source.frame(startedAfter: instant, timeout: timeout)
        return FrameMark(sequence: delivered.frame.sequence, timestamp: delivered.frame.timestampNanoseconds)
    }

    /// Whether the device's stream runs (its session was started and not stopped).
    package var isStreaming: Bool { source.currentSize != nil }

    /// The upright picture of the running stream (its frames turned by the mounting, for a
    /// device held at 0°), nil when it is stopped: what framings are crops of.
    package var streamingUprightSize: PixelSize? {
        source.currentSize.map { sensorMounting.upright(rotationAngle: 0).apply(to: $0) }
    }

    /// Restarts a stream the driver crops without its crop; does nothing to any other.
    private func uncropStream() async throws(PhotoCaptureError) {
        if source.currentCrop != nil, let bounds = cropBounds, let format = source.currentFormat {
            _ = try await source.stream(format: format, size: bounds.size, crop: nil, discardingFirst: 0)
        }
    }

    /// The part of the whole frame a stream the driver crops to `crop` shows, normalised to the
    /// frame (before any turn); nil when the driver has no crop bounds.
    func fieldOfView(ofDriverCrop crop: PixelRect) -> NormalizedRect? {
        guard let bounds = cropBounds else { return nil }
        return NormalizedRect(crop.offsetBy(dx: -bounds.x, dy: -bounds.y), in: bounds.size)
    }

    /// An output that needs whole frames is attached: the driver stops cropping for photos, and
    /// a stream it crops is restarted once uncropped — in the background, since attaching never
    /// waits for the camera. A restart that fails is logged by the stream and leaves it stopped;
    /// the next photo starts it again.
    func wantWholeFrames() {
        framing.update { $0.wholeFrameViewers += 1 }
        guard source.currentCrop != nil else { return }
        Task { try? await uncropStream() }
    }

    /// An output that needed whole frames is detached.
    func releaseWholeFrames() {
        framing.update { $0.wholeFrameViewers = max(0, $0.wholeFrameViewers - 1) }
    }
}
