import Imaging
import V4L2

/// A frame source whose driver can crop the picture before it is delivered.
protocol HardwareCroppingSource: FrameSource {
    /// Starts (or restarts) streaming `format` frames of `crop`'s size, the driver cropping the
    /// picture to `crop` (driver coordinates).
    func startStreaming(format: FramePixelFormat, crop: PixelRect, discardingFirst: Int) async throws(PhotoCaptureError)
}

extension V4L2FrameSource: HardwareCroppingSource {
    func startStreaming(format: FramePixelFormat, crop: PixelRect, discardingFirst: Int) async throws(PhotoCaptureError) {
        do {
            try await stream.start(format, size: crop.size, crop: crop, discardingFirst: discardingFirst)
        } catch {
            guard case .cropNotAccepted = error else { throw PhotoCaptureError(error) }
            throw PhotoCaptureError(.hardwareCropRefused(device: error.device, error: error))
        }
    }

    func statistics() async -> StreamStatistics {
        let counted = stream.statistics
        var statistics = StreamStatistics()
        statistics.starts = counted.starts
        statistics.stops = counted.stops
        statistics.framesDelivered = counted.framesDelivered
        statistics.hardwareCrop = stream.activeCrop
        statistics.isStreaming = stream.activeFormat != nil
        return statistics
    }
}
