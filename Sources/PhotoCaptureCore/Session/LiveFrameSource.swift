import Imaging
import Logging
import Synchronization

/// Keeps a backend's frames flowing from the first start to the stop: a pump task, on a thread
/// of its own (``ThreadTaskExecutor``), takes every
/// frame as soon as the backend has it (a V4L2 buffer is dequeued as soon as it is done, so no
/// stale frame waits in the driver), keeps the newest ``ringCapacity`` in a ring, hands photo
/// requests the frame their rule picks and offers every frame to the attached consumers.
///
/// Consumers never slow the pump: each has a mailbox of one pending frame (``FrameConsumerSlot``)
/// and a frame that arrives while it is busy replaces the pending one, counted as a drop.
/// Photo requests wait on the ring, not on the backend, so an analysis consumer can never take
/// a photo's frame.
package final class LiveFrameSource: FrameSource, HardwareCroppingSource {
    /// Frames kept for photo requests: the newest two, so a request that arrives just after a
    /// frame was delivered still finds it.
    static let ringCapacity = 2
    /// How long one pull from the backend may wait; a camera that stays silent longer is not an
    /// error of the stream (requests time out on their own limit) but the pump asks again.
    static let pullTimeout = Duration.seconds(2)
    /// How long stopping waits for each consumer to finish the frame it is working on: a bound,
    /// far above what the slowest consumer (a face detection) takes on one frame.
    static let settleLimit = Duration.seconds(10)
    /// The least a real camera's request waits for its frame when the app set no limit: a USB
    /// camera's first frame after a (re)start can take a second or more, and a loaded machine
    /// adds to it.
    static let waitFloor = Duration.seconds(5)
    /// How many frame intervals a real camera's request waits when that is longer than
    /// ``waitFloor``: a slow or long-exposing stream is not a stalled one.
    static let waitIntervals = 10

    /// The backend.
    let backend: any FrameSource
    /// Named in errors.
    var deviceName: String { backend.devicePath ?? "camera" }

    /// How a photo request picks its frame.
    enum Rule: Sendable {
        /// The first frame whose exposure started after the instant: after a change of exposure,
        /// format or crop, or when zero shutter lag is off.
        case startedAfter(UInt64)
        /// Zero shutter lag: the frame whose exposure was under way at the instant.
        case underWayAt(UInt64)

        /// The frame as a timeout names it.
        var awaited: AwaitedFrame {
            switch self {
            case .startedAfter: return .startedAfterRequest
            case .underWayAt: return .underWayAtRequest
            }
        }
    }

    private struct Entry: Sendable {
        let delivered: DeliveredFrame
        /// When the pump had it (monotonic nanoseconds).
        let arrival: UInt64
    }

    private typealias Waiting = CheckedContinuation<Result<Entry, PhotoCaptureError>, Never>

    private struct Waiter {
        let rule: Rule
        var outcome: Result<Entry, PhotoCaptureError>?
        var continuation: Waiting?

        /// Hands `outcome` to the waiting task, or keeps it until the task asks; true when the
        /// task got it.
        mutating func settle(_ outcome: Result<Entry, PhotoCaptureError>) -> Waiting? {
            self.outcome = outcome
            return continuation
        }
    }

    /// A photo request's claim on a frame, made at the moment of the request so that the frame
    /// its rule picks is set aside however late the request's task runs.
    struct Reservation: Sendable {
        fileprivate let id: UInt64
        let rule: Rule
    }

    private struct Configuration: Equatable {
        let format: FramePixelFormat
        let size: PixelSize
        let crop: PixelRect?
    }

    private struct State {
        var ring: [Entry] = []
        /// Requests waiting for their frame, by reservation; a request whose frame came before
        /// its task asked for it holds the frame here.
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
        var pump: Task<Void, Never>?
        var generation: UInt64 = 0
        var configuration: Configuration?
        var failure: PhotoCaptureError?
        /// How a clip's stream ended: requests fail with it, rather than play the clip again,
        /// until the stream is stopped.
        var ended: PhotoCaptureError?
        /// The stream's frame interval: the median of the last gaps between frames, so that a
        /// frame the camera dropped (a gap of two intervals) does not stretch it.
        var interval: UInt64 = 0
        var recentGaps: [UInt64] = []
        var consumers: [FrameConsumerSlot] = []
        /// Detached consumers still at work on a frame: stopping waits for them too.
        var retiring: [FrameConsumerSlot] = []
        var photoFrames = 0
        var sceneMonitor: SceneMonitor?
        /// Faults of the stream (corrupt and dropped frames, restarts) since the last photo: the
        /// first photo after a fault carries it, so a fault is counted once, by the photo that
        /// was taken after it, whichever frame the pump found it with.
        var unreported = StreamFaults()

        /// `entry` for a photo, carrying the faults no photo has reported yet.
        mutating func handOut(_ entry: Entry) -> Entry {
            photoFrames += 1
            var delivered = entry.delivered
            let stale = delivered.delivery.faults.staleFrames
            delivered.delivery.faults = unreported
            delivered.delivery.faults.staleFrames = stale
            unreported = StreamFaults()
            return Entry(delivered: delivered, arrival: entry.arrival)
        }
        var framesPumped = 0
    }

    private let state = Mutex(State())
    /// Recent frames for photos merged from several frames.
    let history = FrameHistory()
    private let loggerStorage = Mutex(Logger.disabled)
    /// Where stream starts, restarts, failures and dropped frames are logged (the session's
    /// ``CaptureSession/logger``).
    package var logger: Logger {
        get { loggerStorage.withLock { $0 } }
        set { loggerStorage.withLock { $0 = newValue } }
    }
    /// Starts and stops one at a time.
    private let gate = SerialGate()

    /// A live source over `backend`; `backend` itself when it already is one.
    static func wrapping(_ backend: any FrameSource) -> LiveFrameSource {
        (backend as? LiveFrameSource) ?? LiveFrameSource(backend: backend)
    }

    private init(backend: any FrameSource) {
        self.backend = backend
    }

    // MARK: Capabilities, forwarded

    package var hardwareCropping: (any HardwareCroppingSource)? { backend.hardwareCropping == nil ? nil : self }
    package var exposureControls: (any ExposureControls)? { backend.exposureControls }
    package var focusControls: (any FocusControls)? { backend.focusControls }
    package var cameraControls: (any CameraControls)? { backend.cameraControls }
    package var devicePath: String? { backend.devicePath }
    package var makesFramesOnDemand: Bool { backend.makesFramesOnDemand }

    // MARK: Starting and stopping

    package func startStreaming(format: FramePixelFormat, size: PixelSize, discardingFirst: Int) async throws(PhotoCaptureError) {
        _ = try await stream(Configuration(format: format, size: size, crop: nil), discardingFirst: discardingFirst)
    }

    package func startStreaming(format: FramePixelFormat, crop: PixelRect, discardingFirst: Int) async throws(PhotoCaptureError) {
        _ = try await stream(Configuration(format: format, size: crop.size, crop: crop), discardingFirst: discardingFirst)
    }

    /// Streams `format` at `size` (cropped by the driver to `crop`), restarting only when that
    /// changes or the stream failed; returns whether it (re)started, which makes the next photo
    /// the first frame after the change.
    func stream(format: FramePixelFormat, size: PixelSize, crop: PixelRect?,
                discardingFirst: Int) async throws(PhotoCaptureError) -> Bool {
        try await stream(Configuration(format: format, size: crop?.size ?? size, crop: crop), discardingFirst: discardingFirst)
    }

    private func stream(_ configuration: Configuration, discardingFirst: Int) async throws(PhotoCaptureError) -> Bool {
        await gate.enter()
        defer { gate.leave() }
        if let ended = state.withLock({ $0.ended }) { throw ended }
        let (unchanged, previous) = state.withLock {
            ($0.configuration == configuration && $0.pump != nil && $0.failure == nil, $0.configuration)
        }
        if unchanged { return false }
        logger.info("\(previous == nil ? "starting" : "restarting") the stream of \(deviceName)",
                    metadata: ["format": "\(configuration.format)", "size": "\(configuration.size)",
                               "crop": "\(configuration.crop.map { "\($0)" } ?? "none")",
                               "previous": "\(previous.map { "\($0.format) \($0.size)" } ?? "none")"])
        await stopPump()
        do throws(PhotoCaptureError) {
            if let crop = configuration.crop {
                guard let cropping = backend.hardwareCropping else {
                    throw PhotoCaptureError(.hardwareCropRefused(device: deviceName, error: nil))
                }
                try await cropping.startStreaming(format: configuration.format, crop: crop, discardingFirst: discardingFirst)
            } else {
                try await backend.startStreaming(format: configuration.format, size: configuration.size,
                                                 discardingFirst: discardingFirst)
            }
        } catch {
            state.withLock { $0.configuration = nil }
            logger.error("\(deviceName) did not start streaming: \(error)")
            throw error
        }
        startPump(configuration)
        return true
    }

    package func stopStreaming() async {
        await gate.enter()
        defer { gate.leave() }
        await stopPump()
        state.withLock { $0.configuration = nil; $0.ended = nil }
        await backend.stopStreaming()
        fail(PhotoCaptureError(.sessionNotRunning), generation: nil)
        let consumers = state.withLock { (state) -> [FrameConsumerSlot] in
            defer { state.retiring = [] }
            return state.consumers + state.retiring
        }
        for consumer in consumers where !(await consumer.settle(within: Self.settleLimit)) {
            logger.warning("a consumer of \(deviceName) was still busy \(Self.settleLimit) after the stream stopped")
        }
    }

    private func startPump(_ configuration: Configuration) {
        let generation = state.withLock { (state) -> UInt64 in
            state.generation += 1
            state.ring = []
            state.failure = nil
            state.interval = 0
            state.recentGaps = []
            state.configuration = configuration
            return state.generation
        }
        history.clear()
        let backend = backend
        // A thread of its own, as AVFoundation's capture queues: an app that fills the
        // cooperative pool with blocking work neither stalls the stream nor loses its frames.
        let thread = ThreadTaskExecutor(name: "photocap.pump")
        let pump = Task.detached(executorPreference: thread) { [weak self] in
            defer { thread.shutdown() }
            var after: UInt64 = 0
            while !Task.isCancelled {
                do throws(PhotoCaptureError) {
                    let delivered = try await backend.frame(startedAfter: after, timeout: Self.pullTimeout)
                    after = delivered.frame.timestampNanoseconds
                    guard let self else { return }
                    self.arrived(delivered, generation: generation)
                } catch {
                    if Task.isCancelled { return }
                    if case .frameTimeout = error.code { continue }
                    self?.fail(error, generation: generation)
                    return
                }
            }
        }
        state.withLock { $0.pump = pump }
    }

    private func stopPump() async {
        let pump = state.withLock { (state) -> Task<Void, Never>? in
            defer { state.pump = nil; state.generation += 1; state.ring = [] }
            return state.pump
        }
        history.clear()
        pump?.cancel()
        await pump?.value
    }

    // MARK: Frames in

    private func arrived(_ delivered: DeliveredFrame, generation: UInt64) {
        let entry = Entry(delivered: delivered, arrival: MonotonicClock.now())
        var ready: [(Waiting, Entry)] = []
        let (consumers, sceneMonitor, current) = state.withLock { (state) -> ([FrameConsumerSlot], SceneMonitor?, Bool) in
            guard state.generation == generation else {
                // A frame of a stream being replaced goes to nobody, but its faults (such as the
                // retried start that began that stream) happened: the next photo reports them.
                state.unreported.carry(entry.delivered.delivery.faults)
                return ([], nil, false)
            }
            if let last = state.ring.last, entry.delivered.frame.timestampNanoseconds > last.delivered.frame.timestampNanoseconds {
                state.recentGaps.append(entry.delivered.frame.timestampNanoseconds - last.delivered.frame.timestampNanoseconds)
                if state.recentGaps.count > 9 { state.recentGaps.removeFirst() }
                state.interval = state.recentGaps.sorted()[state.recentGaps.count / 2]
            }
            if let last = state.ring.last, entry.delivered.frame.sequence > last.delivered.frame.sequence + 1 {
                let missing = entry.delivered.frame.sequence - last.delivered.frame.sequence - 1
                logger.warning("\(deviceName) dropped \(missing) frame(s)",
                               metadata: ["after": "\(last.delivered.frame.sequence)", "next": "\(entry.delivered.frame.sequence)"])
            } else if state.ring.isEmpty {
                logger.debug("first frame of \(deviceName)",
                             metadata: ["format": "\(entry.delivered.frame.format)", "size": "\(entry.delivered.frame.size)",
                                        "sequence": "\(entry.delivered.frame.sequence)"])
            }
            state.ring.append(entry)
            if state.ring.count > Self.ringCapacity { state.ring.removeFirst(state.ring.count - Self.ringCapacity) }
            state.framesPumped += 1
            state.unreported.carry(entry.delivered.delivery.faults)
            for (id, waiter) in state.waiters where waiter.outcome == nil {
                if let found = Self.pick(waiter.rule, in: state.ring, interval: state.interval) {
                    let picked = state.handOut(found)
                    if let continuation = state.waiters[id]?.settle(.success(picked)) {
                        state.waiters[id] = nil
                        ready.append((continuation, picked))
                    }
                }
            }
            return (state.consumers, state.sceneMonitor, true)
        }
        if current { history.keep(delivered.frame) { sceneMonitor?.isFlashScene ?? false } }
        for (continuation, picked) in ready { continuation.resume(returning: .success(picked)) }
        for consumer in consumers { consumer.offer(delivered.frame) }
    }

    /// Ends every waiting request and every consumer with `error`; a failure of the current
    /// stream (`generation`) also fails requests that come later, until a restart.
    private func fail(_ error: PhotoCaptureError, generation: UInt64?) {
        let (waiters, consumers) = state.withLock { (state) -> ([(Waiting, Result<Entry, PhotoCaptureError>)], [FrameConsumerSlot]) in
            if let generation {
                guard state.generation == generation else { return ([], []) }
                if case .clipEnded = error.code {
                    state.ended = error
                    logger.info("the stream of \(deviceName) ended: \(error)")
                } else {
                    logger.error("the stream of \(deviceName) failed: \(error)")
                }
                state.failure = error
                state.pump = nil
                state.configuration = nil
            }
            var waiting: [(Waiting, Result<Entry, PhotoCaptureError>)] = []
            for id in Array(state.waiters.keys) where state.waiters[id]?.outcome == nil {
                // At a clip's end no frame follows the one under way at a zero-shutter-lag
                // request, which waited to see whether one would: that one is its frame.
                var outcome = Result<Entry, PhotoCaptureError>.failure(error)
                if case .clipEnded = error.code, case .underWayAt(let instant)? = state.waiters[id]?.rule,
                   let under = state.ring.last(where: { $0.delivered.frame.timestampNanoseconds <= instant }) {
                    outcome = .success(state.handOut(under))
                }
                if let continuation = state.waiters[id]?.settle(outcome) {
                    state.waiters[id] = nil
                    waiting.append((continuation, outcome))
                }
            }
            return (waiting, state.consumers)
        }
        for (waiter, outcome) in waiters { waiter.resume(returning: outcome) }
        for consumer in consumers { consumer.fail(error) }
    }

    // MARK: Frames out

    /// The part of a frame interval by which a frame's start may come early.
    static let jitterFraction: UInt64 = 8

    /// The frame `rule` picks among `ring` (oldest first), nil while it has not arrived.
    private static func pick(_ rule: Rule, in ring: [Entry], interval: UInt64) -> Entry? {
        switch rule {
        case .startedAfter(let instant):
            return ring.first { $0.delivered.frame.timestampNanoseconds > instant }
        case .underWayAt(let instant):
            guard let under = ring.last(where: { $0.delivered.frame.timestampNanoseconds <= instant }) else {
                // Every frame in hand started after the request (the stream just started).
                return ring.first
            }
            let start = under.delivered.frame.timestampNanoseconds
            let next = ring.first { $0.delivered.frame.timestampNanoseconds > instant }
            guard interval > 0 else {
                // No frame interval measured yet: the last frame begun before the request is the
                // one under way once a later one has begun.
                return next == nil ? nil : under
            }
            // Its exposure still ran at the request and the next one's cannot have begun yet,
            // as a timer's jitter moves a start by a fraction of the interval: taken. Nearer the
            // end of its interval the next frame may have begun and not yet arrived (the pump
            // is late on a loaded machine); its own start then decides, once it is here.
            if start + interval > instant + interval / jitterFraction { return under }
            // The next frame began after the request: the last one begun before it was under way
            // (a timer's jitter made this gap a little longer than the interval) unless frames
            // were dropped between the two; then none was, and the first one after is taken.
            if let next {
                let gap = next.delivered.frame.timestampNanoseconds - start
                return gap < interval + interval / 2 ? under : next
            }
            // The frame under way has not arrived yet.
            return nil
        }
    }

    package func frame(startedAfter instant: UInt64, timeout: Duration) async throws(PhotoCaptureError) -> DeliveredFrame {
        try await frame(.startedAfter(instant), timeout: timeout)
    }

    /// Claims the frame `rule` picks, now: from the ring if it is there, else the first to
    /// arrive that fits. Redeem it with ``frame(for:timeout:)``.
    func reserve(_ rule: Rule) -> Reservation {
        state.withLock { (state) -> Reservation in
            state.nextWaiter += 1
            let id = state.nextWaiter
            var waiter = Waiter(rule: rule)
            if let failure = state.failure {
                waiter.outcome = .failure(failure)
            } else if state.pump == nil {
                waiter.outcome = .failure(PhotoCaptureError(.sessionNotRunning))
            } else if let found = Self.pick(rule, in: state.ring, interval: state.interval) {
                waiter.outcome = .success(state.handOut(found))
            }
            state.waiters[id] = waiter
            return Reservation(id: id, rule: rule)
        }
    }

    /// The frame `rule` picks, waiting at most `timeout` (see ``waitLimit(_:)`` for nil).
    func frame(_ rule: Rule, timeout: Duration?) async throws(PhotoCaptureError) -> DeliveredFrame {
        try await frame(for: reserve(rule), timeout: timeout)
    }

    /// How long a request waits for its frame: `explicit` when the app set it
    /// (``PhotoOutput/frameTimeout``); no limit for a camera that makes its frames on demand
    /// (synthetic, frame file, clip), whose wait ends with the frame or the stream's failure
    /// however loaded the machine is, since the pump hands every waiter one or the other and
    /// stopping fails the rest; else ``waitIntervals`` frame intervals, at least ``waitFloor``.
    func waitLimit(_ explicit: Duration?) -> Duration? {
        if let explicit { return explicit }
        if backend.makesFramesOnDemand { return nil }
        let interval = state.withLock { $0.interval }
        return max(Self.waitFloor, .nanoseconds(Int64(clamping: interval)) * Self.waitIntervals)
    }

    /// The frame of `reservation`, waiting at most `timeout` (see ``waitLimit(_:)`` for nil);
    /// its delivery's delays count from the rule's instant.
    func frame(for reservation: Reservation, timeout: Duration?) async throws(PhotoCaptureError) -> DeliveredFrame {
        let limit = waitLimit(timeout)
        let id = reservation.id
        let rule = reservation.rule
        let instant: UInt64
        switch rule {
        case .startedAfter(let value), .underWayAt(let value): instant = value
        }
        let result = await withCheckedContinuation { (continuation: Waiting) in
            let immediate = state.withLock { (state) -> Result<Entry, PhotoCaptureError>? in
                guard let waiter = state.waiters[id] else { return .failure(PhotoCaptureError(.sessionNotRunning)) }
                if let outcome = waiter.outcome {
                    state.waiters[id] = nil
                    return outcome
                }
                state.waiters[id]?.continuation = continuation
                return nil
            }
            if let immediate { return continuation.resume(returning: immediate) }
            // On the timer thread, not the pool: the limit holds while an app blocks the pool.
            guard let limit else { return }
            ThreadTaskExecutor.timers.schedule(after: limit) { [weak self] in self?.expire(id, after: limit) }
        }
        let entry: Entry
        switch result {
        case .success(let picked): entry = picked
        case .failure(let error): throw error
        }
        var delivery = entry.delivered.delivery
        let start = entry.delivered.frame.timestampNanoseconds
        delivery.requestToExposureNanoseconds = start - min(start, instant)
        delivery.exposureStartOffsetNanoseconds = Int64(bitPattern: start &- instant)
        delivery.requestToDeliveryNanoseconds = max(entry.arrival, instant) - instant
        delivery.staleFramesSkipped = 0
        switch rule {
        case .startedAfter: delivery.frameSelection = .firstFrameAfterRequest
        case .underWayAt: delivery.frameSelection = start <= instant ? .zeroShutterLag : .firstFrameAfterRequest
        }
        return DeliveredFrame(frame: entry.delivered.frame, delivery: delivery)
    }

    /// Gives up a reservation whose request ended otherwise.
    func cancel(_ reservation: Reservation) {
        state.withLock { _ = $0.waiters.removeValue(forKey: reservation.id) }
    }

    /// Whether the stream runs as `format` at `size` with the driver's `crop`, so a request for
    /// it needs no restart.
    func isStreaming(format: FramePixelFormat, size: PixelSize, crop: PixelRect?) -> Bool {
        state.withLock {
            $0.pump != nil && $0.failure == nil
                && $0.configuration == Configuration(format: format, size: crop?.size ?? size, crop: crop)
        }
    }

    private func expire(_ id: UInt64, after limit: Duration) {
        let expired = state.withLock { (state) -> (Waiting, Rule)? in
            guard let waiter = state.waiters[id], let continuation = waiter.continuation else { return nil }
            state.waiters[id] = nil
            return (continuation, waiter.rule)
        }
        guard let (continuation, rule) = expired else { return }
        let code = PhotoCaptureError.Code.frameTimeout(milliseconds: Int(limit.seconds * 1000), device: deviceName,
                                                       frame: rule.awaited)
        continuation.resume(returning: .failure(PhotoCaptureError(code)))
    }

    package func statistics() async -> StreamStatistics {
        var statistics = await backend.statistics()
        state.withLock {
            statistics.framesDelivered = $0.photoFrames
            statistics.framesStreamed = $0.framesPumped
            statistics.consumerDrops = $0.consumers.map(\.dropped).reduce(0, +)
        }
        return statistics
    }

    /// The driver's crop of the running stream, nil when the frames are whole.
    var currentCrop: PixelRect? { state.withLock { $0.configuration?.crop } }

    /// The pixel format being streamed, nil when stopped.
    var currentFormat: FramePixelFormat? { state.withLock { $0.configuration?.format } }

    /// The size of the frames being streamed, nil when stopped.
    var currentSize: PixelSize? { state.withLock { $0.configuration?.size } }

    /// When the newest frame in hand started its exposure, and the measured frame interval:
    /// nil until two frames of the running stream arrived.
    var frameTiming: (newestStart: UInt64, interval: UInt64)? {
        state.withLock { state in
            guard state.interval > 0, let newest = state.ring.last else { return nil }
            return (newest.delivered.frame.timestampNanoseconds, state.interval)
        }
    }

    // MARK: Consumers

    /// The scene monitor, when something started it; nil otherwise (asking does not start it).
    var runningSceneMonitor: SceneMonitor? { state.withLock { $0.sceneMonitor } }

    /// Keeps recent frames for merging as `policy` says. `.whenDark` keeps none until the scene
    /// monitor, once something started it, judges the scene too dark.
    func keepFrames(for policy: FrameHistory.Policy) {
        history.policy = policy
    }

    /// The scene monitor of this stream, attached on first use.
    var sceneMonitor: SceneMonitor {
        state.withLock { (state) -> SceneMonitor in
            if let monitor = state.sceneMonitor { return monitor }
            let monitor = SceneMonitor(exposure: backend.exposureControls)
            state.sceneMonitor = monitor
            state.consumers.append(FrameConsumerSlot(monitor, label: "scene"))
            return monitor
        }
    }

    /// Offers every later frame to `slot` until it is detached.
    func attach(_ slot: FrameConsumerSlot) {
        state.withLock { $0.consumers.append(slot) }
    }

    /// Stops offering frames to `slot`; the frames waiting in it are dropped. One still at work
    /// is kept until it is done, so that stopping the stream waits for it.
    func detach(_ slot: FrameConsumerSlot) {
        slot.discardPending()
        state.withLock { (state) in
            state.consumers.removeAll { $0 === slot }
            state.retiring.removeAll { $0.isIdle }
            if !slot.isIdle { state.retiring.append(slot) }
        }
    }
}
