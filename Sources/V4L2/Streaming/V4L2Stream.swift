import CV4L2
import Dispatch
import Glibc
import Imaging
import Synchronization

/// mmap streaming from one device, handing out the first frame whose exposure began after a
/// given instant.
///
/// All ioctls run on one serial queue (a blocking poll never occupies Swift's cooperative
/// threads). Frames borrow the driver's buffers without copying; a buffer goes back to the
/// driver (VIDIOC_QBUF) as soon as its frame is released, and stale frames are handed back at
/// once. Every wait is bounded.
package final class V4L2Stream: @unchecked Sendable {
    // Unchecked: every mutable field below is touched only on `queue`.

    /// The device streamed from.
    package let device: V4L2Device
    /// Buffers requested from the driver.
    package let bufferCount: Int
    /// Flagged or short frames tolerated in a row before a request fails.
    package let maximumConsecutiveCorruptFrames: Int

    private let queue = DispatchQueue(label: "photocap.v4l2.stream")
    /// An eventfd that ends the poll of a wait whose task is cancelled, so stopping a stream
    /// never waits out a pull's timeout; -1 when none could be made (a cancelled wait then ends
    /// within its one-second poll slice).
    private let wake: Int32
    private var active: Active? {
        didSet { published.withLock { ($0.format, $0.crop) = (active?.format, active?.crop) } }
    }
    private var generation: UInt64 = 0
    private var isGone = false
    private var counters = V4L2StreamStatistics() {
        didSet { published.withLock { $0.counters = counters } }
    }
    /// What the getters read: a copy kept current by the queue, so asking never waits behind a
    /// poll that the live stream's pull has under way on the queue.
    private let published = Mutex<(counters: V4L2StreamStatistics, format: V4L2ActiveFormat?, crop: PixelRect?)>(
        (V4L2StreamStatistics(), nil, nil))
    private var lastSequence: UInt32?
    /// Start retries not yet reported with a frame.
    private var unreportedRestarts = 0

    private struct Active {
        let pixelFormat: FramePixelFormat
        let format: V4L2ActiveFormat
        let crop: PixelRect?
        let mappings: V4L2BufferMappings
        let generation: UInt64
        let frameInterval: UInt64
        let discardBelowSequence: UInt32
    }

    /// A stream over `device`; nothing happens until ``start(_:size:discardingFirst:)``.
    package init(device: V4L2Device, bufferCount: Int = 4, maximumConsecutiveCorruptFrames: Int = 8) {
        self.device = device
        self.bufferCount = max(2, bufferCount)
        self.maximumConsecutiveCorruptFrames = max(1, maximumConsecutiveCorruptFrames)
        let wake = pc_v4l2_wake_create()
        self.wake = wake < 0 ? -1 : wake
    }

    deinit {
        if wake >= 0 { close(wake) }
        if active != nil {
            _ = device.driver.streamOff(device.fd)
            var request = v4l2_requestbuffers()
            request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            request.memory = V4L2_MEMORY_MMAP.rawValue
            _ = device.driver.requestBuffers(device.fd, &request)
        }
    }

    /// Counters since the stream object was made.
    package var statistics: V4L2StreamStatistics { published.withLock { $0.counters } }

    /// The format being streamed, nil when stopped.
    package var activeFormat: V4L2ActiveFormat? { published.withLock { $0.format } }

    /// The driver's crop of the running stream (V4L2_SEL_TGT_CROP), nil when stopped or uncropped.
    package var activeCrop: PixelRect? { published.withLock { $0.crop } }

    /// Streams `format` at `size`, cropped by the driver to `crop` (driver coordinates; its size
    /// must be `size`) when given. Does nothing when already streaming exactly that; otherwise
    /// stops (STREAMOFF, REQBUFS 0), configures the device (``V4L2Device/configureCapture(_:size:crop:requestJPEGColorSpace:)``)
    /// and starts again. The first `discardingFirst` frames after a start are dropped so auto
    /// exposure can settle.
    ///
    /// A failed REQBUFS or STREAMON is retried once after a clean stop.
    @discardableResult
    package func start(_ format: FramePixelFormat, size: PixelSize, crop: PixelRect? = nil,
                      discardingFirst: Int = 0) async throws(V4L2Error) -> V4L2ActiveFormat {
        try await onQueue { () throws(V4L2Error) in
            try self.startOnQueue(format, size: size, crop: crop, discard: discardingFirst)
        }
    }

    /// Stops streaming and returns the buffers; idempotent.
    package func stop() async {
        _ = try? await onQueue { () throws(V4L2Error) in self.stopOnQueue() }
    }

    /// The first frame whose exposure started after `instant` (CLOCK_MONOTONIC nanoseconds),
    /// waiting at most `timeout`. Older frames are handed back to the driver unread. Cancelling
    /// the calling task ends the wait at once with ``V4L2Error/cancelled(device:)``.
    package func frame(startedAfter instant: UInt64, timeout: Duration) async throws(V4L2Error) -> V4L2CapturedFrame {
        let cancellation = WaitCancellation()
        let wake = wake
        let result = await withTaskCancellationHandler {
            await onQueueResult { () throws(V4L2Error) in
                try self.frameOnQueue(after: instant, timeout: timeout, cancellation: cancellation)
            }
        } onCancel: {
            cancellation.isCancelled.store(true, ordering: .releasing)
            if wake >= 0 { pc_v4l2_wake(wake) }
        }
        return try result.get()
    }

    /// Set when the task of one wait is cancelled; the wait checks it after every poll.
    private final class WaitCancellation: Sendable {
        let isCancelled = Atomic(false)
    }

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws(V4L2Error) -> T) async throws(V4L2Error) -> T {
        try await onQueueResult(body).get()
    }

    private func onQueueResult<T: Sendable>(_ body: @escaping @Sendable () throws(V4L2Error) -> T) async -> Result<T, V4L2Error> {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result(catching: body)) }
        }
    }

    // MARK: On the queue

    private func startOnQueue(_ format: FramePixelFormat, size: PixelSize, crop: PixelRect?,
                              discard: Int) throws(V4L2Error) -> V4L2ActiveFormat {
        if isGone { throw .callFailed(device: device.path, call: .streamOn, errno: .operationNotSupportedByDevice) }
        if let crop, crop.size != size {
            throw .cropNotAccepted(device: device.path, requested: crop, granted: nil)
        }
        if let active, active.pixelFormat == format, active.format.size == size, active.crop == crop {
            return active.format
        }
        stopOnQueue()
        do {
            return try attemptStart(format, size: size, crop: crop, discard: discard)
        } catch let error where Self.isRetryableStartFailure(error) {
            stopOnQueue()
            counters.faults.restarts += 1
            unreportedRestarts += 1
            return try attemptStartAfterFailure(format, size: size, crop: crop, discard: discard)
        } catch {
            stopOnQueue()
            markGoneIfNeeded(error)
            throw error
        }
    }

    private static func isRetryableStartFailure(_ error: V4L2Error) -> Bool {
        guard case .callFailed(_, let call, _) = error, !error.isDeviceGone, !error.isBusy else { return false }
        return call == .requestBuffers || call == .streamOn || call == .queueBuffer
    }

    private func attemptStart(_ format: FramePixelFormat, size: PixelSize, crop: PixelRect?,
                              discard: Int) throws(V4L2Error) -> V4L2ActiveFormat {
        let fourCC = format.v4l2FourCC
        let description = try device.formats().first { $0.fourCC == fourCC }
        let requestCSC = format.isYUV && description?.canSetColorSpace == true
        let granted = try device.configureCapture(fourCC, size: size, crop: crop, requestJPEGColorSpace: requestCSC)
        guard granted.fourCC == fourCC, granted.size == size else {
            throw .formatNotAccepted(device: device.path, requested: "\(fourCC) \(size)",
                                     granted: "\(granted.fourCC) \(granted.size)")
        }
        let interval = (try? device.frameInterval())?.nanoseconds ?? 0

        var request = v4l2_requestbuffers()
        request.count = UInt32(bufferCount)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try check(device.driver.requestBuffers(device.fd, &request), .requestBuffers, device: device.path)
        guard request.count >= 2 else { throw .streamingUnsupported(device: device.path) }
        let mappings = try V4L2BufferMappings(device: device, count: Int(request.count))
        generation += 1
        let started = Active(pixelFormat: format, format: granted, crop: crop, mappings: mappings, generation: generation,
                             frameInterval: interval, discardBelowSequence: UInt32(max(0, discard)))
        // Active before QBUF so a failure below is cleaned up by stopOnQueue.
        active = started
        for index in 0..<mappings.buffers.count { try queueBuffer(index) }
        try check(device.driver.streamOn(device.fd), .streamOn, device: device.path)
        lastSequence = nil
        counters.starts += 1
        return granted
    }

    private func stopOnQueue() {
        guard let stopping = active else { return }
        active = nil
        _ = device.driver.streamOff(device.fd)
        var request = v4l2_requestbuffers()
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        // Buffers still held by frames are orphaned by the driver and unmapped when released.
        _ = device.driver.requestBuffers(device.fd, &request)
        counters.stops += 1
        // Drivers keep a crop across opens: leave the whole picture to the next user.
        if stopping.crop != nil, let whole = try? device.selection(.cropDefault) {
            _ = try? device.setSelection(.crop, to: whole)
        }
    }

    private func queueBuffer(_ index: Int) throws(V4L2Error) {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try check(device.driver.queueBuffer(device.fd, &buffer), .queueBuffer, device: device.path)
    }

    /// Hands a buffer back unless the stream it belongs to has stopped since.
    private func requeue(_ index: Int, generation: UInt64) {
        guard let active, active.generation == generation, !isGone else { return }
        do {
            try queueBuffer(index)
        } catch {
            markGoneIfNeeded(error)
        }
    }

    private func markGoneIfNeeded(_ error: V4L2Error) {
        guard error.isDeviceGone else { return }
        isGone = true
        stopOnQueue()
    }

    /// What one request's wait has seen so far.
    private struct FrameWait {
        var report = V4L2FrameReport()
        var consecutiveCorrupt = 0
        var fatalRestarts = 0
    }

    private func frameOnQueue(after instant: UInt64, timeout: Duration,
                              cancellation: WaitCancellation) throws(V4L2Error) -> V4L2CapturedFrame {
        let timeoutNanoseconds = UInt64(max(0, timeout.components.seconds)) * 1_000_000_000
            + UInt64(max(0, timeout.components.attoseconds) / 1_000_000_000)
        let deadline = monotonicNanoseconds() + timeoutNanoseconds
        var wait = FrameWait()
        while true {
            if isGone { throw .callFailed(device: device.path, call: .dequeueBuffer, errno: .operationNotSupportedByDevice) }
            if cancellation.isCancelled.load(ordering: .acquiring) { throw .cancelled(device: device.path) }
            guard let active else { throw .notStreaming(device: device.path) }
            let now = monotonicNanoseconds()
            guard now < deadline else {
                throw .timeout(device: device.path, milliseconds: Int(timeoutNanoseconds / 1_000_000))
            }
            guard let buffer = try dequeue(waitingUntil: deadline, now: now, active: active, wait: &wait),
                  let start = try accepted(buffer, after: instant, active: active, wait: &wait),
                  let captured = captured(buffer, exposureStart: start, active: active, report: &wait.report)
            else { continue }
            return captured
        }
    }

    /// The next filled buffer, waiting at most until `deadline`; nil when there was none yet or
    /// the stream was restarted after the driver declared it broken (EIO/EPIPE, once a wait).
    private func dequeue(waitingUntil deadline: UInt64, now: UInt64, active: Active,
                         wait: inout FrameWait) throws(V4L2Error) -> v4l2_buffer? {
        let waitMilliseconds = Int32(min(1000, (deadline - now + 999_999) / 1_000_000))
        let events = device.driver.poll(device.fd, wakingOn: wake, timeoutMilliseconds: waitMilliseconds)
        if events < 0 { throw .callFailed(device: device.path, call: .poll, errno: Errno(-events)) }
        if events == 0 { return nil }

        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        let result = device.driver.dequeueBuffer(device.fd, &buffer)
        if result == -EAGAIN {
            // POLLERR with nothing to dequeue: every buffer is held by a frame. Wait briefly.
            if events & Int32(PC_V4L2_POLLERR) != 0 { usleep(2_000) }
            return nil
        }
        guard result < 0 else { return buffer }
        let error = V4L2Error.callFailed(device: device.path, call: .dequeueBuffer, errno: Errno(-result))
        if error.isDeviceGone {
            markGoneIfNeeded(error)
            throw error
        }
        // EIO/EPIPE: the driver declared the stream broken (vb2_queue_error). Restart once.
        guard wait.fatalRestarts == 0, result == -EIO || result == -EPIPE else { throw error }
        wait.fatalRestarts += 1
        counters.faults.restarts += 1
        unreportedRestarts += 1
        let (format, size, crop) = (active.pixelFormat, active.format.size, active.crop)
        stopOnQueue()
        _ = try attemptStartAfterFailure(format, size: size, crop: crop, discard: 0)
        return nil
    }

    /// The exposure start of `buffer` when its frame is the one asked for; nil (the buffer handed
    /// back, the fault counted) when it is corrupt, short, still discarded after a start, or
    /// began before `instant`. Throws after too many corrupt frames in a row.
    private func accepted(_ buffer: v4l2_buffer, after instant: UInt64, active: Active,
                          wait: inout FrameWait) throws(V4L2Error) -> UInt64? {
        let index = Int(buffer.index)
        let sequence = buffer.sequence
        if let last = lastSequence, sequence > last &+ 1 {
            let gap = Int(sequence &- last &- 1)
            counters.faults.droppedFrames += gap
            wait.report.faults.droppedFrames += gap
        }
        lastSequence = sequence
        counters.framesDequeued += 1

        let format = active.pixelFormat
        // A size whose byte count overflows cannot be filled: every frame is judged corrupt.
        let expected = (try? format.frameByteCount(size: active.format.size,
                                                   bytesPerRow: active.format.bytesPerLine)) ?? Int.max
        let used = Int(buffer.bytesused)
        let flagged = buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0
        if flagged || used < expected || (format.isCompressed && used == 0) {
            counters.faults.corruptFrames += 1
            wait.report.faults.corruptFrames += 1
            wait.consecutiveCorrupt += 1
            requeue(index, generation: active.generation)
            if wait.consecutiveCorrupt >= maximumConsecutiveCorruptFrames {
                throw .corruptFrames(device: device.path, count: wait.consecutiveCorrupt)
            }
            return nil
        }
        wait.consecutiveCorrupt = 0
        if sequence < active.discardBelowSequence {
            requeue(index, generation: active.generation)
            return nil
        }
        let start = exposureStart(of: buffer, interval: active.frameInterval)
        guard start > instant else {
            counters.faults.staleFrames += 1
            wait.report.faults.staleFrames += 1
            requeue(index, generation: active.generation)
            return nil
        }
        return start
    }

    /// The frame of an accepted `buffer`, borrowing the driver's mapping until it is released;
    /// nil (counted as corrupt) when the buffer is too small for the format the driver reported.
    private func captured(_ buffer: v4l2_buffer, exposureStart start: UInt64, active: Active,
                          report: inout V4L2FrameReport) -> V4L2CapturedFrame? {
        let index = Int(buffer.index)
        let format = active.pixelFormat
        let mapping = active.mappings.buffers[index]
        let generation = active.generation
        let mappings = active.mappings
        let used = Int(buffer.bytesused)
        let byteCount = format.isCompressed ? min(used, mapping.count) : mapping.count
        let storage = FrameStorage(borrowing: UnsafeRawBufferPointer(rebasing: mapping[0..<byteCount]), holder: .camera) { [self] _ in
            withExtendedLifetime(mappings) {}
            queue.async { self.requeue(index, generation: generation) }
        }
        do {
            let frame = try Frame(
                format: format, size: active.format.size,
                bytesPerRow: format.isCompressed ? nil : active.format.bytesPerLine,
                range: active.format.isFullRange ? .full : .limited, storage: storage,
                sequence: UInt64(buffer.sequence), timestampNanoseconds: start)
            counters.framesDelivered += 1
            report.exposureStartNanoseconds = start
            report.dequeuedNanoseconds = monotonicNanoseconds()
            // Restarts go with a frame actually returned: a wait that times out keeps them
            // for the next one.
            report.faults.restarts = unreportedRestarts
            unreportedRestarts = 0
            return V4L2CapturedFrame(frame: frame, report: report)
        } catch {
            counters.faults.corruptFrames += 1
            report.faults.corruptFrames += 1
            return nil
        }
    }

    /// A second start after a failure; if it fails too, the stream is left stopped.
    private func attemptStartAfterFailure(_ format: FramePixelFormat, size: PixelSize, crop: PixelRect?,
                                          discard: Int) throws(V4L2Error) -> V4L2ActiveFormat {
        do {
            return try attemptStart(format, size: size, crop: crop, discard: discard)
        } catch {
            stopOnQueue()
            markGoneIfNeeded(error)
            throw error
        }
    }

    /// When the buffer's exposure began, on CLOCK_MONOTONIC.
    private func exposureStart(of buffer: v4l2_buffer, interval: UInt64) -> UInt64 {
        let flags = buffer.flags
        let monotonic = flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
        let stamp = monotonic
            ? UInt64(buffer.timestamp.tv_sec) * 1_000_000_000 + UInt64(buffer.timestamp.tv_usec) * 1_000
            : monotonicNanoseconds()
        // End-of-frame timestamps (the default) are one frame interval after the exposure began.
        let endOfFrame = flags & UInt32(V4L2_BUF_FLAG_TSTAMP_SRC_MASK) == UInt32(V4L2_BUF_FLAG_TSTAMP_SRC_EOF)
        return endOfFrame || !monotonic ? stamp - min(stamp, interval) : stamp
    }
}

/// A frame and how it was found.
package struct V4L2CapturedFrame: Sendable {
    /// The frame, borrowing the driver's buffer until released.
    package let frame: Frame
    /// What was skipped on the way.
    package let report: V4L2FrameReport
}

/// What one wait for a frame skipped: the evidence for shutter lag and fault handling.
package struct V4L2FrameReport: Sendable, Equatable {
    /// What the wait skipped: frames that started before the request (handed back unread),
    /// frames flagged V4L2_BUF_FLAG_ERROR or short, sequence gaps, and the restarts after a
    /// failed start or a fatal streaming error that no earlier frame reported.
    package var faults = StreamFaults()
    /// When the delivered frame's exposure began (CLOCK_MONOTONIC nanoseconds).
    package var exposureStartNanoseconds: UInt64 = 0
    /// When the delivered frame was dequeued (CLOCK_MONOTONIC nanoseconds).
    package var dequeuedNanoseconds: UInt64 = 0
}

/// Counters over a stream's life.
package struct V4L2StreamStatistics: Sendable, Equatable {
    /// STREAMON calls that succeeded.
    package var starts = 0
    /// Stops: VIDIOC_STREAMOFF calls (each followed by REQBUFS 0). A stream that keeps running
    /// while its consumers change crop or aspect ratio shows none.
    package var stops = 0
    /// Buffers dequeued.
    package var framesDequeued = 0
    /// Frames handed to the app.
    package var framesDelivered = 0
    /// Every fault so far: frames skipped because they began before the request, because the
    /// driver flagged them or they were short, sequence gaps, and restarts after a failed start
    /// or a fatal streaming error.
    package var faults = StreamFaults()
}

/// CLOCK_MONOTONIC, the clock V4L2 stamps buffers with.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
