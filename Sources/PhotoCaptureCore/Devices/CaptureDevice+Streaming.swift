import Imaging

extension CaptureDevice {
    /// Streams `format` at `size`, cropped by the driver to `hardwareCrop` when given (then
    /// `size` is its size), restarting only when that changes; returns whether the stream
    /// (re)started. A driver that refuses the crop makes this device crop in software from then on.
    @discardableResult
    func startStreaming(format: FramePixelFormat, size: PixelSize, hardwareCrop: PixelRect?,
                        discardingFirst: Int) async throws(PhotoCaptureError) -> Bool {
        do {
            return try await source.stream(format: format, size: size, crop: hardwareCrop, discardingFirst: discardingFirst)
        } catch {
            if case .hardwareCropRefused = error.code { framing.update { $0.hardwareCropRefused = true } }
            throw error
        }
    }
}

extension CaptureDevice {
    /// Judges the scene from the running stream: too dark (a flash scene), too bright or normal.
    /// Created, and attached to the stream, on first use.
    public var sceneMonitor: SceneMonitor { source.sceneMonitor }
}
