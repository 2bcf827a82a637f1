import Imaging

/// A camera that plays a recorded clip: frame `n` of the clip starts its exposure at
/// `start + n × interval` on the clip's timeline (the clip's own frame rate, from the stream's
/// start) and is delivered when the next one begins, as a sensor would. Frames are read from the
/// file as they are due, so a clip of any length takes one frame of memory (and the offset of
/// each frame played so far).
///
/// At the last frame the stream ends with ``PhotoCaptureError/Code/clipEnded(path:frames:)``,
/// or, looping, plays the clip again on a timeline that keeps going.
actor ClipFrameSource: FrameSource {
    private let file: ClipFile
    private let loops: Bool
    /// Where each frame's planes start, as far as the file has been read (each `FRAME` line
    /// checked).
    private var planeOffsets: [Int]
    /// The number of frames, once the end of the file was found.
    private var frameCount: Int?
    private var streaming: (format: FramePixelFormat, size: PixelSize, start: UInt64)?
    private var last: (index: Int, storage: FrameStorage)?
    private var counters = StreamStatistics()
    /// Each frame is read from the file when the stream is asked for it.
    nonisolated var makesFramesOnDemand: Bool { true }

    init(file: ClipFile, loops: Bool) throws(ClipError) {
        self.file = file
        self.loops = loops
        // An empty clip, or one whose first frame is malformed, is refused before any capture.
        guard let first = try file.planesOffset(frameAt: file.header.length, index: 0) else { throw .noFrames }
        planeOffsets = [first]
    }

    func startStreaming(format: FramePixelFormat, size: PixelSize, discardingFirst: Int) async throws(PhotoCaptureError) {
        guard format == .i420 else { throw PhotoCaptureError(.pixelFormatUnavailable(requested: format, available: [.i420])) }
        guard size == file.header.size else { throw PhotoCaptureError(.invalidDimensions(size)) }
        // The live stream starts it again only after it ended or failed: then the clip plays
        // from its start. No frame is discarded: a recorded clip has no auto exposure to
        // settle, and every frame of it is wanted.
        if streaming != nil { counters.stops += 1 }
        streaming = (format, size, MonotonicClock.now())
        counters.starts += 1
    }

    func stopStreaming() async {
        if streaming != nil { counters.stops += 1 }
        streaming = nil
        last = nil
    }

    func statistics() async -> StreamStatistics {
        var statistics = counters
        statistics.isStreaming = streaming != nil
        return statistics
    }

    private func time(_ start: UInt64, _ position: UInt64) -> UInt64 { start + file.header.offset(ofFrame: position) }

    func frame(startedAfter instant: UInt64, timeout: Duration) async throws(PhotoCaptureError) -> DeliveredFrame {
        guard let streaming else { throw PhotoCaptureError(.sessionNotRunning) }
        // The first position on the timeline whose start is after `instant`.
        var position: UInt64 = 0
        if instant >= streaming.start {
            let elapsed = Double(instant - streaming.start) * Double(file.header.rateNumerator)
                / (Double(file.header.rateDenominator) * 1e9)
            position = UInt64(max(0, elapsed - 1))
            while time(streaming.start, position) <= instant { position += 1 }
            while position > 0, time(streaming.start, position - 1) > instant { position -= 1 }
        }
        let exposureStart = time(streaming.start, position)
        let deliveryTime = time(streaming.start, position + 1)
        let index: Int
        do {
            index = try clipIndex(of: position)
        } catch {
            // The end comes when a frame after the last would have: until then the last one is
            // the picture shown, which a photo requested while it plays takes (zero shutter
            // lag), as from any frame a later one follows; a clip of one frame is shot so.
            if case .clipEnded = error.code { _ = try await SensorCadence.wait(until: deliveryTime, timeout: timeout, device: file.path) }
            throw error
        }
        if try await SensorCadence.wait(until: deliveryTime, timeout: timeout, device: file.path) > 0 {
            // Stopped, or stopped and started again, meanwhile.
            guard let current = self.streaming, current.start == streaming.start else {
                throw PhotoCaptureError(.sessionNotRunning)
            }
        }
        let storage = try planes(of: index)
        var delivery = FrameDelivery()
        delivery.requestToExposureNanoseconds = exposureStart - min(exposureStart, instant)
        let delivered = MonotonicClock.now()
        delivery.requestToDeliveryNanoseconds = delivered - min(delivered, instant)
        do {
            let frame = try Frame(format: .i420, size: file.header.size, bytesPerRow: file.header.size.width,
                                  range: file.header.range, storage: storage,
                                  sequence: position + 1, timestampNanoseconds: exposureStart)
            counters.framesDelivered += 1
            return DeliveredFrame(frame: frame, delivery: delivery)
        } catch {
            throw PhotoCaptureError(.imaging(error))
        }
    }

    /// The clip's frame at `position` on the timeline; past the end, the end of the stream
    /// (or, looping, the clip again).
    private func clipIndex(of position: UInt64) throws(PhotoCaptureError) -> Int {
        if let frameCount {
            if loops { return Int(position % UInt64(frameCount)) }
            guard position < UInt64(frameCount) else { throw PhotoCaptureError(.clipEnded(path: file.path, frames: frameCount)) }
            return Int(position)
        }
        // Finds the FRAME lines up to `position`, reading those lines only.
        while UInt64(planeOffsets.count) <= position {
            let index = planeOffsets.count
            let next: Int?
            do throws(ClipError) {
                next = try file.planesOffset(frameAt: planeOffsets[index - 1] + file.header.frameByteCount, index: index)
            } catch {
                throw PhotoCaptureError(.clipUnreadable(path: file.path, error))
            }
            guard let next else {
                frameCount = planeOffsets.count
                return try clipIndex(of: position)
            }
            planeOffsets.append(next)
        }
        return Int(position)
    }

    /// The planes of frame `index`, read from the file (the last ones kept, for a photo and
    /// the stream that ask for the same frame).
    private func planes(of index: Int) throws(PhotoCaptureError) -> FrameStorage {
        if let last, last.index == index { return last.storage }
        do throws(ClipError) {
            let start = planeOffsets[index]
            // Memory of this frame alone: the source lets go of it at the next frame.
            let storage = try FrameStorage(count: file.header.frameByteCount, holder: .frame) { (buffer) throws(ClipError) in
                try file.readPlanes(at: start, into: buffer, index: index)
            }
            last = (index, storage)
            return storage
        } catch {
            throw PhotoCaptureError(.clipUnreadable(path: file.path, error))
        }
    }
}
