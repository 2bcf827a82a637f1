import Imaging
import PhotoCaptureCore
import V4L2

extension V4L2FrameSource: HardwareCroppingSource {
    func startStreaming(format: FramePixelFormat, crop: PixelRect, discardingFirst: Int) async throws(PhotoCaptureError) {
        do {
            try await stream.start(format, size: crop.size, crop: crop, discardingFirst: discardingFirst)
        } catch {
            guard case .cropNotAccepted = error else { throw Self.streamingError(error, device: stream.device) }
            throw PhotoCaptureError(.hardwareCropRefused(device: error.device, error: DeviceError(error)))
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
