import Imaging

/// A stream whose every frame shows the same picture: the synthetic and frame-file cameras.
///
/// Frames are a function of time: frame `n` starts its exposure at `start + n × interval` and is
/// delivered one interval later, as a free-running sensor would deliver it. The picture is made
/// once per format and size; each frame shares its bytes and carries its own sequence number and
/// timestamp.
actor StillFrameSource: FrameSource {
    typealias Render = @Sendable (FramePixelFormat, PixelSize) throws(PhotoCaptureError) -> Frame

    private let render: Render
    private let interval: UInt64
    private var streaming: (format: FramePixelFormat, size: PixelSize, frame: Frame, start: UInt64)?
    private var counters = StreamStatistics()

    init(framesPerSecond: Int = 30, render: @escaping Render) {
        self.render = render
        interval = 1_000_000_000 / UInt64(max(framesPerSecond, 1))
    }

    func startStreaming(format: FramePixelFormat, size: PixelSize, discardingFirst: Int) async throws(PhotoCaptureError) {
        if let streaming, streaming.format == format, streaming.size == size { return }
        let picture = try render(format, size)
        if streaming != nil { counters.stops += 1 }
        // Discarded frames simply push the first usable exposure later.
        streaming = (format, size, picture, MonotonicClock.now() + UInt64(max(0, discardingFirst)) * interval)
        counters.starts += 1
    }

    func stopStreaming() async {
        if streaming != nil { counters.stops += 1 }
        streaming = nil
    }

    func statistics() async -> StreamStatistics {
        var statistics = counters
        statistics.isStreaming = streaming != nil
        return statistics
    }

    func frame(startedAfter instant: UInt64, timeout: Duration) async throws(PhotoCaptureError) -> DeliveredFrame {
        guard let streaming else { throw PhotoCaptureError(.sessionNotRunning) }
        let elapsed = instant > streaming.start ? instant - streaming.start : 0
        let sequence = elapsed / interval + 1
        let exposureStart = streaming.start + sequence * interval
        let deliveryTime = exposureStart + interval
        let now = MonotonicClock.now()
        if deliveryTime > now {
            let wait = deliveryTime - now
            guard Duration.nanoseconds(Int64(wait)) <= timeout else {
                throw PhotoCaptureError(.frameTimeout(milliseconds: Int(timeout.seconds * 1000)))
            }
            try? await Task.sleep(for: .nanoseconds(Int64(wait)))
            // The stream may have stopped, or restarted in another format, while this request
            // waited: then the first frame after `instant` is the restarted stream's.
            guard let current = self.streaming else { throw PhotoCaptureError(.sessionNotRunning) }
            if current.start != streaming.start || current.format != streaming.format || current.size != streaming.size {
                return try await frame(startedAfter: instant, timeout: timeout - .nanoseconds(Int64(wait)))
            }
        }
        let picture = streaming.frame
        var delivery = FrameDelivery()
        delivery.requestToExposureNanoseconds = exposureStart - min(exposureStart, instant)
        let delivered = MonotonicClock.now()
        delivery.requestToDeliveryNanoseconds = delivered - min(delivered, instant)
        do {
            let frame = try Frame(format: picture.format, size: picture.size, bytesPerRow: picture.bytesPerRow,
                                  range: picture.range, storage: picture.storage, sequence: sequence,
                                  timestampNanoseconds: exposureStart)
            return DeliveredFrame(frame: frame, delivery: delivery)
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
    }
}
