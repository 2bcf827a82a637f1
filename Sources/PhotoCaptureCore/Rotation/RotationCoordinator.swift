import Glibc
import Synchronization

/// The rotation angles that keep photos and the preview level with the horizon as the device
/// turns, from its accelerometer: modelled on `AVCaptureDevice.RotationCoordinator`.
///
/// On Linux the accelerometer's orientation comes from iio-sensor-proxy over D-Bus
/// (`net.hadess.SensorProxy` on the system bus). The coordinator connects, claims the
/// accelerometer (the proxy reads it only while a client claims it) and follows its changes on
/// a thread of its own until ``invalidate()`` or the coordinator's end, when it releases it.
///
/// Making a coordinator never blocks: it connects on that thread, each D-Bus step (connecting,
/// authenticating, subscribing, each call) bounded to two seconds, and ``updates()`` yields
/// the first reading once the proxy has answered or the attempt failed.
///
/// ```swift
/// let coordinator = RotationCoordinator(device: camera)
/// for await angles in coordinator.updates() {
///     try preview.setVideoRotationAngle(angles?.horizonLevelPreview ?? 0)
/// }
/// // The loop ends at invalidate(), or when there is no source to follow (sourceError says why).
/// ```
///
/// The angles are nil when there is nothing to go by — no reading yet, no libsystemd, no bus,
/// no iio-sensor-proxy, no accelerometer (``sourceError`` says which), or an orientation the
/// proxy reports as `undefined` — never a guess.
///
/// The mapping from the accelerometer's orientation to the angles is
/// ``Angles/init(orientation:location:previewDisplay:)``; the camera's location
/// (``V4L2Details/location``) decides it, since a front camera sees the device's turn the other
/// way round.
public final class RotationCoordinator: Sendable {
    /// The camera the angles are for.
    public let device: CaptureDevice
    /// How the preview's screen turns.
    public let previewDisplay: PreviewDisplay

    private let shared: Shared
    private let watcher = Mutex<pthread_t?>(nil)

    /// A coordinator for `device`, whose preview shows on a screen that turns as
    /// `previewDisplay` says, reading iio-sensor-proxy on `bus`. It returns at once and never
    /// fails: it connects on a thread of its own, and ``updates()`` yields its first reading
    /// once the proxy answered or the attempt failed; without a rotation source its angles are
    /// nil and ``sourceError`` says why.
    public init(device: CaptureDevice, previewDisplay: PreviewDisplay = .followsDevice, bus: Bus = .system) {
        self.device = device
        self.previewDisplay = previewDisplay
        let shared = Shared(location: device.location, display: previewDisplay)
        self.shared = shared
        let address: String?
        switch bus {
        case .system: address = nil
        case .address(let value): address = value
        }
        let thread = WorkerThread.startJoinable { Self.watch(address, into: shared) }
        guard let thread else {
            shared.publish(nil, problem: .connectionFailed(Errno(EAGAIN)))
            shared.finish()
            return
        }
        watcher.withLock { $0 = thread }
    }

    deinit { invalidate() }

    /// The clockwise degrees that make a photo horizon-level, for
    /// ``PhotoSettings/rotationAngle``; nil without a reading.
    public var videoRotationAngleForHorizonLevelCapture: Int? { shared.angles?.horizonLevelCapture }

    /// The clockwise degrees that make the preview horizon-level on its screen, for
    /// ``VideoDataOutput/setVideoRotationAngle(_:)``; nil without a reading.
    public var videoRotationAngleForHorizonLevelPreview: Int? { shared.angles?.horizonLevelPreview }

    /// The accelerometer's orientation; nil without a reading.
    public var accelerometerOrientation: AccelerometerOrientation? { shared.angles?.orientation }

    /// Why there is no rotation source, or why it was lost; nil while iio-sensor-proxy answers
    /// with an accelerometer, and before the first answer.
    public var sourceError: SensorProxyError? { shared.state.withLock { $0.problem } }

    /// The first reading (once the proxy answered or the attempt failed: nil, with
    /// ``sourceError`` saying why), then each change (nil when the reading is lost), newest
    /// first for a slow reader. The stream finishes at ``invalidate()``, or when the connection
    /// failed or could not be made, as there is nothing left to follow.
    public func updates() -> AsyncStream<Angles?> {
        let (stream, continuation) = AsyncStream<Angles?>.makeStream(bufferingPolicy: .bufferingNewest(1))
        shared.add(continuation)
        return stream
    }

    /// Stops following the device: releases the accelerometer, closes the connection, finishes
    /// the streams and leaves the angles nil. Returns when it is done; later calls do nothing.
    /// Stopping while the thread still connects waits for that step, at most its two seconds.
    public func invalidate() {
        guard let thread = watcher.withLock({ (thread) -> pthread_t? in defer { thread = nil }; return thread }) else {
            shared.finish()
            return
        }
        shared.stopping.store(true, ordering: .releasing)
        shared.state.withLock { $0.connection }?.wake()
        pthread_join(thread, nil)
        shared.finish()
        // The last reference to the connection, let go outside the lock: closing releases the
        // claim, a call bounded like the others, which readers of the angles must not wait for.
        let connection = shared.state.withLock { (state) -> SensorProxyConnection? in
            defer { state.connection = nil }
            return state.connection
        }
        withExtendedLifetime(connection) {}
    }

    // MARK: The watcher

    /// Connects, reads, and follows the proxy until the coordinator stops or the connection
    /// fails; on the watcher thread, so no D-Bus step blocks the coordinator's maker.
    private static func watch(_ address: String?, into shared: Shared) {
        let connection: SensorProxyConnection
        do {
            connection = try SensorProxyConnection(address: address)
        } catch {
            shared.publish(nil, problem: error)
            shared.finish()
            return
        }
        // Kept where invalidate() finds it to wake the wait; stored before `stopping` is read,
        // so either invalidate() sees it or this sees `stopping`.
        shared.state.withLock { $0.connection = connection }
        if shared.stopping.load(ordering: .acquiring) { return }
        var claimed = false
        refresh(connection, claimed: &claimed, into: shared)
        // Watched even when the proxy or its accelerometer is missing now: either may come.
        if !follow(connection, claimed: claimed, into: shared) { shared.finish() }
    }

    /// What the coordinator and its watcher thread share (the thread holds no reference to the
    /// coordinator, so the coordinator's end is never the thread's to run).
    private final class Shared: Sendable {
        struct State {
            var angles: Angles?
            var problem: SensorProxyError?
            /// Whether the first attempt is over: streams get their first element then.
            var started = false
            var finished = false
            var connection: SensorProxyConnection?
            var streams: [Int: AsyncStream<Angles?>.Continuation] = [:]
            var nextStream = 0
        }

        let location: CaptureDevice.Location?
        let display: PreviewDisplay
        let state = Mutex(State())
        let stopping = Atomic(false)

        init(location: CaptureDevice.Location?, display: PreviewDisplay) {
            self.location = location
            self.display = display
        }

        var angles: Angles? { state.withLock { $0.angles } }

        /// Records a reading (nil: none) or a failure, and tells the streams when the angles
        /// changed.
        func publish(_ orientation: AccelerometerOrientation?, problem: SensorProxyError?) {
            let angles = orientation.map { Angles(orientation: $0, location: location, previewDisplay: display) }
            let streams = state.withLock { (state) -> [AsyncStream<Angles?>.Continuation] in
                state.problem = problem
                defer { state.started = true }
                guard !state.finished, !state.started || state.angles != angles else { return [] }
                state.angles = angles
                return Array(state.streams.values)
            }
            for stream in streams { stream.yield(angles) }
        }

        func add(_ continuation: AsyncStream<Angles?>.Continuation) {
            let (current, finished) = state.withLock { (state) -> (Angles??, Bool) in
                guard !state.finished else { return (nil, true) }
                let id = state.nextStream
                state.nextStream += 1
                state.streams[id] = continuation
                continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
                // Before the first attempt is over there is no reading to give: it comes then.
                return (state.started ? .some(state.angles) : .none, false)
            }
            if finished {
                continuation.finish()
            } else if let current {
                continuation.yield(current)
            }
        }

        func finish() {
            let streams = state.withLock { (state) -> [AsyncStream<Angles?>.Continuation] in
                defer { (state.streams, state.angles, state.finished) = ([:], nil, true) }
                return Array(state.streams.values)
            }
            for stream in streams { stream.finish() }
        }
    }

    /// Reads the proxy, claiming the accelerometer first when there is one and it is not
    /// claimed, and publishes what it found; returns the failure, if any.
    @discardableResult
    private static func refresh(_ connection: SensorProxyConnection, claimed: inout Bool, into shared: Shared) -> SensorProxyError? {
        do {
            var reading = try connection.read()
            if reading.hasAccelerometer, !claimed {
                try connection.claim()
                claimed = true
                reading = try connection.read()
            }
            shared.publish(reading.hasAccelerometer ? reading.orientation : nil,
                           problem: reading.hasAccelerometer ? nil : .noAccelerometer)
            return nil
        } catch {
            shared.publish(nil, problem: error)
            return error
        }
    }

    /// Follows the proxy's changes until the coordinator stops (true) or the connection fails
    /// (false).
    private static func follow(_ connection: SensorProxyConnection, claimed: Bool, into shared: Shared) -> Bool {
        var claimed = claimed
        // A proxy that has just taken its name may not answer yet (python-dbusmock exports its
        // object after taking the name): it is asked again, every 100 ms for 2 s.
        var retries = 0
        while !shared.stopping.load(ordering: .acquiring) {
            let events: SensorProxyConnection.Events
            do {
                events = try connection.wait(milliseconds: retries > 0 ? 100 : nil)
            } catch {
                shared.publish(nil, problem: error)
                return false
            }
            if shared.stopping.load(ordering: .acquiring) { return true }
            // A proxy that stopped or started anew holds no claim of ours.
            if events.contains(.ownerChanged) { (claimed, retries) = (false, 20) }
            guard events.contains(.changed) || events.contains(.ownerChanged) || retries > 0 else { continue }
            switch refresh(connection, claimed: &claimed, into: shared) {
            case .callFailed?: retries = max(retries - 1, 0)
            default: retries = 0
            }
        }
        return true
    }
}
