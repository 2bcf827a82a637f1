import CLibcamera
import Dispatch
import Glibc
import Imaging
import PhotoCaptureCore
import Synchronization

/// Frames from a libcamera camera: one still stream, fed by capture requests.
///
/// The camera is acquired when streaming starts and released when it stops, so listing cameras
/// never holds one. Every call into the shim runs on one serial queue; a wait for a frame is
/// cut into short slices on it, so a frame's release (which hands its buffers back and queues
/// the next request) gets in between, and a cancelled wait ends within a slice. Frames borrow
/// libcamera's mapped buffers without copying, as a V4L2 camera's frames borrow the driver's.
final class LibcameraFrameSource: FrameSource, @unchecked Sendable {
    // Unchecked: every mutable field below is touched only on `queue`; `published` is a Mutex.

    /// The camera as listed.
    let info: LibcameraCameraInfo
    private let manager: LibcameraManager
    private let queue = DispatchQueue(label: "photocap.libcamera.stream")

    /// Requests kept with libcamera while streaming: some pipelines (vimc) start only with two.
    static let queuedRequests = 2
    /// Buffers asked for: the queued requests, the live ring's 2, a photo being encoded and a
    /// consumer's frames.
    static let bufferCount: UInt32 = 6
    /// The longest a wait blocks the queue at a time, which bounds how late a cancellation is seen.
    static let waitSlice: Duration = .milliseconds(20)

    private var camera: OpaquePointer?
    private var active: Active?
    private var generation: UInt64 = 0
    private var queued = 0
    /// Frames out there borrowing the open camera's buffers: the camera is closed (its buffers
    /// unmapped) only once none is, and not reconfigured while any is.
    private var held = 0
    private var unreportedFaults = StreamFaults()
    private var lastSequence: UInt32?
    private let published = Mutex(StreamStatistics())

    private struct Active {
        let pixelFormat: FramePixelFormat
        let size: PixelSize
        let stream: pc_lc_stream
        let generation: UInt64
        var discardRemaining: Int
    }

    init(info: LibcameraCameraInfo, manager: LibcameraManager) {
        self.info = info
        self.manager = manager
    }

    deinit {
        if let camera { manager.shim.camera_close(camera) }
    }

    var devicePath: String? { info.id }

    /// How long a restart waits for the frames of the previous stream to be released.
    static let releaseWait: Duration = .seconds(2)

    func startStreaming(format: FramePixelFormat, size: PixelSize, discardingFirst: Int) async throws(PhotoCaptureError) {
        let deadline = ContinuousClock.now + Self.releaseWait
        while true {
            let result: Result<Void, LibcameraError> = await onQueue { () throws(LibcameraError) in
                try self.startOnQueue(format, size: size, discard: discardingFirst)
            }
            do {
                return try result.get()
            } catch .framesHeld where ContinuousClock.now < deadline {
                // The stream stopped queuing; the frames a consumer still holds come back soon.
                try? await Task.sleep(for: .milliseconds(10))
            } catch {
                throw PhotoCaptureError(error)
            }
        }
    }

    func stopStreaming() async {
        _ = await onQueue { () throws(LibcameraError) in self.stopOnQueue() }
    }

    func statistics() async -> StreamStatistics {
        published.withLock { $0 }
    }

    func frame(startedAfter instant: UInt64, timeout: Duration) async throws(PhotoCaptureError) -> DeliveredFrame {
        let cancelled = CancellationFlag()
        let wait = FrameWait(instant: instant, deadline: Self.now() &+ UInt64(max(timeout, .zero).nanoseconds), timeout: timeout)
        let result: Result<DeliveredFrame, LibcameraError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async { self.poll(wait, cancelled: cancelled, continuation: continuation) }
            }
        } onCancel: {
            cancelled.set()
        }
        do { return try result.get() } catch { throw PhotoCaptureError(error) }
    }

    // MARK: On the queue

    private func onQueue(_ body: @escaping @Sendable () throws(LibcameraError) -> Void) async -> Result<Void, LibcameraError> {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result { () throws(LibcameraError) in try body() }) }
        }
    }

    private func startOnQueue(_ format: FramePixelFormat, size: PixelSize, discard: Int) throws(LibcameraError) {
        if let active, active.pixelFormat == format, active.size == size { return }
        guard let (streamFormat, isRaw) = info.streamFormat(for: format), !isRaw else {
            throw .configurationRefused(camera: info.id, requested: "\(format) \(size)", reason: "the still stream has no \(format)")
        }
        stopOnQueue()
        guard held == 0 else { throw .framesHeld(camera: info.id, count: held) }
        let camera = try openOnQueue()
        var message = LibcameraResult.messageBuffer()
        var request = pc_lc_stream_request(fourcc: streamFormat.fourcc, width: UInt32(size.width), height: UInt32(size.height),
                                           buffer_count: Self.bufferCount)
        var configuration = pc_lc_configuration()
        let result = manager.shim.camera_configure(camera, &request, nil, Int32(PC_LC_TRANSFORM_IDENTITY), &configuration, &message, message.count)
        if let error = LibcameraError(result: result, call: .configure, camera: info.id, message: LibcameraResult.message(message),
                                      requested: "\(format) \(size)") {
            closeOnQueue()
            throw error
        }
        let still = configuration.still
        var name = still.name
        let configuredName = withUnsafeBytes(of: &name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard configuredName == streamFormat.name, Int(still.width) == size.width, Int(still.height) == size.height else {
            closeOnQueue()
            throw .configurationRefused(camera: info.id, requested: "\(format) \(size)",
                                        reason: "the pipeline adjusted it to \(configuredName) \(still.width)x\(still.height)")
        }
        generation += 1
        active = Active(pixelFormat: format, size: size, stream: still, generation: generation, discardRemaining: max(0, discard))
        queued = 0
        lastSequence = nil
        published.withLock { $0.starts += 1; $0.isStreaming = true }
        try topUpOnQueue()
    }

    private func openOnQueue() throws(LibcameraError) -> OpaquePointer {
        if let camera { return camera }
        var message = LibcameraResult.messageBuffer()
        var result = Int32(PC_LC_OK)
        guard let opened = manager.shim.camera_open(manager.pointer, info.id, nil, &result, &message, message.count) else {
            throw LibcameraError(result: result, call: .open, camera: info.id, message: LibcameraResult.message(message))
                ?? .callFailed(camera: info.id, call: .open, reason: LibcameraResult.message(message))
        }
        camera = opened
        return opened
    }

    /// Stops queuing requests; closes the camera now, or when the last frame borrowing its
    /// buffers is released.
    private func stopOnQueue() {
        guard active != nil || camera != nil else { return }
        if active != nil { published.withLock { $0.stops += 1; $0.isStreaming = false } }
        active = nil
        generation += 1
        if held == 0 { closeOnQueue() }
    }

    /// Stops and releases the camera, freeing its buffers: only when no frame borrows them.
    private func closeOnQueue() {
        if let camera { manager.shim.camera_close(camera) }
        camera = nil
        queued = 0
    }

    /// Queues requests until ``queuedRequests`` are with libcamera or every buffer is held.
    private func topUpOnQueue() throws(LibcameraError) {
        guard let camera, active != nil else { return }
        var message = LibcameraResult.messageBuffer()
        while queued < Self.queuedRequests {
            let result = manager.shim.camera_queue(camera, nil, 0, nil, &message, message.count)
            if result == PC_LC_NO_BUFFER { return }
            if let error = LibcameraError(result: result, call: .queue, camera: info.id, message: LibcameraResult.message(message)) {
                throw error
            }
            queued += 1
        }
    }

    /// Hands a capture's buffers back and queues the next request, unless the stream it came
    /// from was stopped since.
    private func releaseOnQueue(slot: Int32, generation: UInt64) {
        held -= 1
        guard let camera else { return }
        if generation == self.generation {
            manager.shim.camera_release(camera, slot)
            try? topUpOnQueue()
        } else if active == nil, held == 0 {
            closeOnQueue()
        }
    }

    private struct FrameWait: Sendable {
        let instant: UInt64
        let deadline: UInt64
        let timeout: Duration
        var faults = StreamFaults()
    }

    /// One slice of a wait; schedules the next slice unless it is over.
    private func poll(_ wait: FrameWait, cancelled: CancellationFlag,
                      continuation: CheckedContinuation<Result<DeliveredFrame, LibcameraError>, Never>) {
        var wait = wait
        let timedOut = LibcameraError.timeout(camera: info.id, milliseconds: Int(wait.timeout.seconds * 1000))
        guard !cancelled.isSet else { return continuation.resume(returning: .failure(timedOut)) }
        guard let camera, var active else { return continuation.resume(returning: .failure(.notStreaming(camera: info.id))) }
        let now = Self.now()
        guard now < wait.deadline else { return continuation.resume(returning: .failure(timedOut)) }
        let slice = min(UInt64(Self.waitSlice.nanoseconds), wait.deadline - now)
        var message = LibcameraResult.messageBuffer()
        var capture = pc_lc_capture()
        let result = manager.shim.camera_wait(camera, Int32(max(1, slice / 1_000_000)), &capture, &message, message.count)
        if result == PC_LC_TIMEOUT {
            let next = wait
            return queue.async { self.poll(next, cancelled: cancelled, continuation: continuation) }
        }
        if let error = LibcameraError(result: result, call: .wait, camera: info.id, message: LibcameraResult.message(message)) {
            return continuation.resume(returning: .failure(error))
        }
        queued -= 1
        let slot = capture.slot
        func skip() {
            manager.shim.camera_release(camera, slot)
            do { try topUpOnQueue() } catch { return continuation.resume(returning: .failure(error)) }
            let next = wait
            queue.async { self.poll(next, cancelled: cancelled, continuation: continuation) }
        }
        guard capture.cancelled == 0 else { return skip() }
        let sequence = capture.still.sequence
        if let last = lastSequence, sequence > last &+ 1 {
            wait.faults.droppedFrames += Int(sequence &- last &- 1)
        }
        lastSequence = sequence
        if active.discardRemaining > 0 {
            active.discardRemaining -= 1
            self.active = active
            return skip()
        }
        let start = capture.metadata & UInt32(PC_LC_CONTROL_SENSOR_TIMESTAMP) != 0 && capture.sensor_timestamp_ns > 0
            ? UInt64(capture.sensor_timestamp_ns) : Self.now()
        guard start > wait.instant else {
            wait.faults.staleFrames += 1
            return skip()
        }
        do {
            let frame = try makeFrame(capture, active: active, exposureStart: start, camera: camera)
            var delivery = FrameDelivery()
            wait.faults.carry(unreportedFaults)
            unreportedFaults = StreamFaults()
            delivery.faults = wait.faults
            delivery.measureDelays(from: wait.instant, exposureStart: start, delivered: Self.now())
            published.withLock { $0.framesDelivered += 1 }
            try topUpOnQueue()
            continuation.resume(returning: .success(DeliveredFrame(frame: frame, delivery: delivery)))
        } catch {
            continuation.resume(returning: .failure(error))
        }
    }

    /// The frame of a completed capture, borrowing its buffer until released (a frame in
    /// several planes is copied, and its buffer handed back at once).
    private func makeFrame(_ capture: pc_lc_capture, active: Active, exposureStart: UInt64,
                           camera: OpaquePointer) throws(LibcameraError) -> Frame {
        var planes = capture.still.planes
        let count = Int(capture.still.plane_count)
        let list = withUnsafeBytes(of: &planes) { Array($0.bindMemory(to: pc_lc_plane.self).prefix(count)) }
        let slot = capture.slot
        let generation = active.generation
        let storage: FrameStorage
        if list.count == 1, let data = list[0].data {
            let length = active.pixelFormat.isCompressed ? Int(list[0].length) : max(Int(list[0].length), Int(active.stream.frame_size))
            held += 1
            storage = FrameStorage(borrowing: UnsafeRawBufferPointer(start: data, count: length), holder: .camera) { [self] _ in
                queue.async { self.releaseOnQueue(slot: slot, generation: generation) }
            }
        } else {
            let total = list.reduce(0) { $0 + Int($1.length) }
            storage = FrameStorage(count: total) { (buffer: UnsafeMutableRawBufferPointer) in
                var offset = 0
                for plane in list where plane.data != nil {
                    buffer.baseAddress!.advanced(by: offset).copyMemory(from: plane.data!, byteCount: Int(plane.length))
                    offset += Int(plane.length)
                }
            }
            manager.shim.camera_release(camera, slot)
        }
        do {
            return try Frame(format: active.pixelFormat, size: active.size,
                             bytesPerRow: active.pixelFormat.isCompressed ? nil : Int(active.stream.stride),
                             storage: storage, sequence: UInt64(capture.still.sequence), timestampNanoseconds: exposureStart)
        } catch {
            let expected = (try? active.pixelFormat.frameByteCount(size: active.size, bytesPerRow: Int(active.stream.stride))) ?? 0
            throw .shortFrame(camera: info.id, expected: expected, actual: storage.count)
        }
    }

    /// CLOCK_MONOTONIC in nanoseconds: the clock of libcamera's SensorTimestamp and of requests.
    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// Set when the task waiting for a frame is cancelled; the wait's next slice sees it.
private final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// Whether the wait was cancelled.
    var isSet: Bool { value.load(ordering: .relaxed) }

    /// Cancels the wait.
    func set() { value.store(true, ordering: .relaxed) }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to Int64.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow ? .max
            : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in seconds.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
