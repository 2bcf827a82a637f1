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
/// ```swift
/// let coordinator = RotationCoordinator(device: camera)
/// var settings = PhotoSettings(format: .jpeg)
/// settings.rotationAngle = coordinator.videoRotationAngleForHorizonLevelCapture ?? 0
///
/// for await angles in coordinator.updates() {
///     try preview.setVideoRotationAngle(angles?.horizonLevelPreview ?? 0)
/// }
/// ```
///
/// The angles are nil when there is nothing to go by — no libsystemd, no bus, no
/// iio-sensor-proxy, no accelerometer (``sourceError`` says which), or an orientation the
/// proxy reports as `undefined` — never a guess. Making a coordinator waits for the proxy's
/// first answer, at most two seconds per call.
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
    private let watch = Mutex<Watch?>(nil)

    /// A coordinator for `device`, whose preview shows on a screen that turns as
    /// `previewDisplay` says, reading iio-sensor-proxy on `bus`. It never fails: without a
    /// rotation source its angles are nil and ``sourceError`` says why.
    public init(device: CaptureDevice, previewDisplay: PreviewDisplay = .followsDevice, bus: Bus = .system) {
        self.device = device
        self.previewDisplay = previewDisplay
        shared = Shared(location: device.v4l2Details?.location, display: previewDisplay)
        let connection: SensorProxyConnection
        do {
            switch bus {
            case .system: connection = try SensorProxyConnection(address: nil)
            case .address(let address): connection = try SensorProxyConnection(address: address)
            }
        } catch {
            shared.publish(nil, problem: error)
            return
        }
        var claimed = false
        Self.refresh(connection, claimed: &claimed, into: shared)
        // Watched even when the proxy or its accelerometer is missing now: either may come.
        let (shared, isClaimed) = (self.shared, claimed)
        let thread = WorkerThread.startJoinable {
            Self.follow(connection, claimed: isClaimed, into: shared)
        }
        if let thread { watch.withLock { $0 = Watch(connection: connection, thread: thread) } }
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
    /// with an accelerometer.
    public var sourceError: SensorProxyError? { shared.state.withLock { $0.problem } }

    /// The angles now, then each change (nil when the reading is lost), newest first for a slow
    /// reader. The stream finishes at ``invalidate()``.
    public func updates() -> AsyncStream<Angles?> {
        let (stream, continuation) = AsyncStream<Angles?>.makeStream(bufferingPolicy: .bufferingNewest(1))
        shared.add(continuation)
        return stream
    }

    /// Stops following the device: releases the accelerometer, closes the connection, finishes
    /// the streams and leaves the angles nil. Returns when it is done; later calls do nothing.
    public func invalidate() {
        guard let watch = watch.withLock({ (watch) -> Watch? in defer { watch = nil }; return watch }) else {
            shared.finish()
            return
        }
        shared.stopping.store(true, ordering: .releasing)
        watch.connection.wake()
        pthread_join(watch.thread, nil)
        shared.finish()
        // The last reference to the connection goes with `watch`: it releases the claim and closes.
    }

    // MARK: The watcher

    /// The connection and the thread that follows it.
    private struct Watch: Sendable {
        let connection: SensorProxyConnection
        let thread: pthread_t
    }

    /// What the coordinator and its watcher thread share (the thread holds no reference to the
    /// coordinator, so the coordinator's end is never the thread's to run).
    private final class Shared: Sendable {
        struct State {
            var angles: Angles?
            var problem: SensorProxyError?
            var finished = false
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
                guard !state.finished, state.angles != angles else { return [] }
                state.angles = angles
                return Array(state.streams.values)
            }
            for stream in streams { stream.yield(angles) }
        }

        func add(_ continuation: AsyncStream<Angles?>.Continuation) {
            let (current, finished) = state.withLock { (state) -> (Angles?, Bool) in
                guard !state.finished else { return (nil, true) }
                let id = state.nextStream
                state.nextStream += 1
                state.streams[id] = continuation
                continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
                return (state.angles, false)
            }
            if finished {
                continuation.finish()
            } else {
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

    /// Follows the proxy's changes until the coordinator stops or the connection fails.
    private static func follow(_ connection: SensorProxyConnection, claimed: Bool, into shared: Shared) {
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
                return
            }
            if shared.stopping.load(ordering: .acquiring) { return }
            // A proxy that stopped or started anew holds no claim of ours.
            if events.contains(.ownerChanged) { (claimed, retries) = (false, 20) }
            guard events.contains(.changed) || events.contains(.ownerChanged) || retries > 0 else { continue }
            switch refresh(connection, claimed: &claimed, into: shared) {
            case .callFailed?: retries = max(retries - 1, 0)
            default: retries = 0
            }
        }
    }
}
