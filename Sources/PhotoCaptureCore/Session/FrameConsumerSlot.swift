import Dispatch
import Imaging
import Synchronization

/// What the live stream offers every frame to: a video data output, the scene monitor, an
/// analysis such as face detection. Called on the consumer's own queue, one frame at a time.
protocol FrameConsumer: AnyObject, Sendable {
    /// One frame of the stream, newest available; the consumer may keep it only as long as its
    /// work on it takes (a V4L2 frame holds a driver buffer).
    func consume(_ frame: Frame)
    /// The stream ended with `error`; no frame follows until it is started again.
    func streamFailed(_ error: PhotoCaptureError)
}

/// A consumer's mailbox on the live stream: at most `capacity` frames wait while the consumer
/// works; when it is full the oldest waiting frame is dropped (counted), so a slow consumer sees
/// the newest frames and never makes the stream wait.
final class FrameConsumerSlot: Sendable {
    private struct State {
        var pending: [Frame] = []
        var busy = false
        var delivered = 0
        var dropped = 0
    }
    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let capacity: Int
    let consumer: any FrameConsumer

    /// A mailbox for `consumer` holding `capacity` waiting frames (1: only the newest).
    init(_ consumer: any FrameConsumer, label: String, capacity: Int = 1) {
        self.consumer = consumer
        self.capacity = max(1, capacity)
        queue = DispatchQueue(label: "photocap.consumer.\(label)", qos: .userInitiated)
    }

    /// Frames handed to the consumer.
    var delivered: Int { state.withLock { $0.delivered } }
    /// Frames that arrived while the consumer was busy and were replaced by newer ones.
    var dropped: Int { state.withLock { $0.dropped } }

    /// Whether the consumer has nothing in hand and nothing waiting.
    var isIdle: Bool { state.withLock { !$0.busy } }

    /// Drops the frames waiting; the one in hand is finished.
    func discardPending() {
        state.withLock { $0.pending = [] }
    }

    /// Called by the stream for each frame; returns at once.
    func offer(_ frame: Frame) {
        let start = state.withLock { (state) -> Bool in
            state.pending.append(frame)
            if state.pending.count > capacity {
                state.pending.removeFirst(state.pending.count - capacity)
                state.dropped += 1
            }
            guard !state.busy else { return false }
            state.busy = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    /// The stream failed: pending frames are dropped and the consumer told. A clip that ended
    /// did not fail: its last frames are handed over first (the drain on the queue, busy while
    /// frames are pending, takes them before this).
    func fail(_ error: PhotoCaptureError) {
        if case .clipEnded = error.code {} else { state.withLock { $0.pending = [] } }
        queue.async { self.consumer.streamFailed(error) }
    }

    /// Returns once the consumer has finished the frame it was working on and everything queued
    /// for it before this call (its queue is serial: a block queued now runs after them), or
    /// after `limit`; false when the limit came first. Stopping the stream waits for this, so no
    /// analysis still runs in a library when the caller goes on, for instance to end the process
    /// (whose exit handlers would tear OpenCV down under a running detection).
    func settle(within limit: Duration) async -> Bool {
        let once = Once()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            once.arm(continuation)
            queue.async { once.resume(true) }
            ThreadTaskExecutor.timers.schedule(after: limit) { once.resume(false) }
        }
    }

    private func drain() {
        while true {
            let next = state.withLock { (state) -> Frame? in
                guard !state.pending.isEmpty else {
                    state.busy = false
                    return nil
                }
                state.delivered += 1
                return state.pending.removeFirst()
            }
            guard let next else { return }
            consumer.consume(next)
        }
    }
}

/// A continuation resumed by whichever comes first, the consumer's queue or the time limit.
private final class Once: Sendable {
    private let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    func arm(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(_ value: Bool) {
        continuation.withLock { (stored) -> CheckedContinuation<Bool, Never>? in
            defer { stored = nil }
            return stored
        }?.resume(returning: value)
    }
}
