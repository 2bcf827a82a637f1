import Imaging

/// A stream whose every frame shows the same picture: the synthetic and frame-file cameras.
///
/// Frames are a function of time: frame `n` starts its exposure at `start + n × interval` and is
/// delivered one interval later, as a free-running sensor would deliver it. The picture is made
/// once per format, size, exposure (see ``SyntheticExposureControls``) and lens position (see
/// ``SyntheticLens``); each frame shares its bytes and carries its own sequence number and
/// timestamp.
actor StillFrameSource: FrameSource {
    /// Renders the picture in a format and size, exposed a factor times the metered exposure,
    /// at a time into the stream (seconds) and a lens defocus (0 sharp ... 1).
    typealias Render = @Sendable (_ format: FramePixelFormat, _ size: PixelSize, _ factor: Double, _ time: Double,
                                  _ defocus: Double) throws(PhotoCaptureError) -> Frame

    /// Pictures kept per stream: a bracket's members plus the metered exposure.
    private static let cachedPictures = 4
    private let render: Render
    private let interval: UInt64
    /// The camera's exposure controls; nil for a camera without them (a frame file).
    nonisolated let exposure: SyntheticExposureControls?
    /// The camera's lens; nil for a camera without focus controls.
    nonisolated let lens: SyntheticLens?
    private var streaming: (format: FramePixelFormat, size: PixelSize, start: UInt64)?
    private var pictures: [(factor: Double, part: Double, defocus: Double, frame: Frame)] = []
    private let script: SyntheticSceneScript?
    private var counters = StreamStatistics()
    /// Each frame is made when the stream is asked for it.
    nonisolated var makesFramesOnDemand: Bool { true }

    init(framesPerSecond: Int = 30, exposure: SyntheticExposureControls? = nil, lens: SyntheticLens? = nil,
         script: SyntheticSceneScript? = nil, render: @escaping Render) {
        self.render = render
        self.script = script
        self.exposure = exposure
        self.lens = lens
        interval = MonotonicClock.frameInterval(framesPerSecond: framesPerSecond)
    }

    func startStreaming(format: FramePixelFormat, size: PixelSize, discardingFirst: Int) async throws(PhotoCaptureError) {
        if let streaming, streaming.format == format, streaming.size == size { return }
        pictures = []
        exposure?.streamStarted()
        let now = MonotonicClock.now()
        _ = try picture(format, size, factor: exposure?.factor(forExposureStartingAt: now) ?? 1,
                        defocus: lens?.defocus(forExposureStartingAt: now) ?? 0)
        if streaming != nil { counters.stops += 1 }
        // Discarded frames simply push the first usable exposure later.
        streaming = (format, size, now + UInt64(max(0, discardingFirst)) * interval)
        counters.starts += 1
    }

    /// The picture for an exposure `factor` and lens `defocus` at `time` seconds into the
    /// stream, rendered once and kept while the stream lasts: a scripted scene is rendered once
    /// per part.
    private func picture(_ format: FramePixelFormat, _ size: PixelSize, factor: Double, defocus: Double,
                         time: Double = 0) throws(PhotoCaptureError) -> Frame {
        let part = script?.partStart(at: time) ?? 0
        if let kept = pictures.first(where: { $0.factor == factor && $0.part == part && $0.defocus == defocus }) { return kept.frame }
        let rendered = try render(format, size, factor, part, defocus)
        // Handed out with every frame while the stream lasts: a photo may keep it for free.
        let frame: Frame
        do {
            frame = try Frame(format: rendered.format, size: rendered.size, bytesPerRow: rendered.bytesPerRow,
                              range: rendered.range, storage: FrameStorage(keptBySource: rendered.storage))
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
        if pictures.count >= Self.cachedPictures { pictures.removeFirst() }
        pictures.append((factor, part, defocus, frame))
        return frame
    }

    func stopStreaming() async {
        if streaming != nil { counters.stops += 1 }
        streaming = nil
        pictures = []
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
        let wait = try await SensorCadence.wait(until: deliveryTime, timeout: timeout, device: "synthetic camera")
        if wait > 0 {
            // The stream may have stopped, or restarted in another format, while this request
            // waited: then the first frame after `instant` is the restarted stream's.
            guard let current = self.streaming else { throw PhotoCaptureError(.sessionNotRunning) }
            if current.start != streaming.start || current.format != streaming.format || current.size != streaming.size {
                return try await frame(startedAfter: instant, timeout: timeout - .nanoseconds(Int64(wait)))
            }
        }
        // After the wait every change that can reach this frame is known.
        let picture = try picture(streaming.format, streaming.size,
                                  factor: exposure?.factor(forExposureStartingAt: exposureStart) ?? 1,
                                  defocus: lens?.defocus(forExposureStartingAt: exposureStart) ?? 0,
                                  time: Double(exposureStart - streaming.start) / 1e9)
        var delivery = FrameDelivery()
        delivery.requestToExposureNanoseconds = exposureStart - min(exposureStart, instant)
        let delivered = MonotonicClock.now()
        delivery.requestToDeliveryNanoseconds = delivered - min(delivered, instant)
        do {
            let frame = try Frame(format: picture.format, size: picture.size, bytesPerRow: picture.bytesPerRow,
                                  range: picture.range, storage: picture.storage, sequence: sequence,
                                  timestampNanoseconds: exposureStart)
            counters.framesDelivered += 1
            return DeliveredFrame(frame: frame, delivery: delivery)
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
    }
}
