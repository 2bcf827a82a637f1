import Imaging
import Synchronization

/// The stream's recent frames, kept for photos merged from several frames
/// (<doc:MultiFrameMerging>): the newest ``depth``, as copies where the frame is a camera's
/// buffer (which the camera needs back to go on streaming), and the frames a merge waits for
/// after its reference.
///
/// What it keeps follows ``Policy``: nothing while no output may merge (so `.speed` costs
/// nothing), frames only while the scene is dark for `.balanced`, every frame for `.quality`.
final class FrameHistory: Sendable {
    /// Which frames are kept.
    enum Policy: Sendable, Equatable {
        /// None: no output merges frames.
        case off
        /// While the scene monitor judges the scene too dark (`.balanced`).
        case whenDark
        /// Always (`.quality`).
        case always

        /// The policy that serves outputs whose most demanding prioritization is `maximum`.
        init(serving maximum: PhotoQualityPrioritization) {
            switch maximum {
            case .speed: self = .off
            case .balanced: self = .whenDark
            case .quality: self = .always
            }
        }
    }

    /// Frames kept: enough neighbours from before a request for `.quality`, and the
    /// request's own frame.
    static let depth = PhotoQualityPrioritization.quality.neighbours.before + 1

    private struct Waiter {
        /// Frames wanted, each starting after the previous one.
        let count: Int
        var after: UInt64
        var frames: [Frame] = []
        let continuation: CheckedContinuation<[Frame], Never>
    }

    private struct State {
        var policy = Policy.off
        var frames: [Frame] = []
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }
    private let state = Mutex(State())

    var policy: Policy {
        get { state.withLock { $0.policy } }
        set { state.withLock { $0.policy = newValue } }
    }

    /// Keeps `frame` when the policy says so (`isDark` is asked only for `.whenDark`) or a
    /// merge waits for it; otherwise lets every kept frame go.
    func keep(_ frame: Frame, isDark: () -> Bool) {
        let (policy, waited, holding) = state.withLock { state in
            (state.policy, state.waiters.values.contains { $0.after < frame.timestampNanoseconds }, !state.frames.isEmpty)
        }
        let wanted = policy == .always || (policy == .whenDark && isDark())
        guard wanted || waited, let owned = Self.owned(frame) else {
            // The usual case (nothing kept, nobody waiting) takes the lock once a frame.
            if holding { state.withLock { $0.frames = [] } }
            return
        }
        var finished: [(CheckedContinuation<[Frame], Never>, [Frame])] = []
        state.withLock { state in
            if wanted {
                state.frames.append(owned)
                if state.frames.count > Self.depth { state.frames.removeFirst(state.frames.count - Self.depth) }
            } else {
                state.frames = []
            }
            for (id, var waiter) in state.waiters where waiter.after < owned.timestampNanoseconds {
                waiter.frames.append(owned)
                waiter.after = owned.timestampNanoseconds
                if waiter.frames.count == waiter.count {
                    state.waiters[id] = nil
                    finished.append((waiter.continuation, waiter.frames))
                } else {
                    state.waiters[id] = waiter
                }
            }
        }
        for (continuation, frames) in finished { continuation.resume(returning: frames) }
    }

    /// Forgets every kept frame (the stream restarts or stops); merges waiting for frames get
    /// those they have.
    func clear() {
        let waiting = state.withLock { state -> [Waiter] in
            defer { state.frames = []; state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiting { waiter.continuation.resume(returning: waiter.frames) }
    }

    /// The kept copy of `frame`, if there is one: a reference that lets go of the camera's
    /// buffer while the merge waits for later frames.
    func keptCopy(of frame: Frame) -> Frame? {
        state.withLock { state in
            state.frames.first { $0.sequence == frame.sequence && $0.timestampNanoseconds == frame.timestampNanoseconds }
        }
    }

    /// Up to `total` neighbours of `reference`, nearest first: at most `before` kept frames
    /// from before it, then kept frames after it and — when `waiting` allows — frames still to
    /// come, for at most that long.
    func neighbours(of reference: Frame, before: Int, total: Int, waiting: Duration?) async -> [Frame] {
        let start = reference.timestampNanoseconds
        let inHand = state.withLock { state -> [Frame] in
            let earlier = state.frames.filter { $0.timestampNanoseconds < start }.suffix(before)
            let later = state.frames.filter { $0.timestampNanoseconds > start }.prefix(max(0, total - earlier.count))
            return Array(earlier.reversed()) + later
        }
        let missing = total - inHand.count
        guard missing > 0, let waiting else { return inHand }
        let after = inHand.map(\.timestampNanoseconds).max().map { max($0, start) } ?? start
        return inHand + (await frames(after: after, count: missing, timeout: waiting))
    }

    /// The next `count` frames that start after `instant`, or those that came within `timeout`.
    private func frames(after instant: UInt64, count: Int, timeout: Duration) async -> [Frame] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[Frame], Never>) in
            let id = state.withLock { state -> UInt64 in
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = Waiter(count: count, after: instant, continuation: continuation)
                return state.nextWaiter
            }
            ThreadTaskExecutor.timers.schedule(after: timeout) { [weak self] in
                guard let waiter = self?.state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return }
                waiter.continuation.resume(returning: waiter.frames)
            }
        }
    }

    /// `frame`, or a copy of it when its bytes are a camera's buffer; nil when the copy cannot
    /// be made.
    private static func owned(_ frame: Frame) -> Frame? {
        guard frame.storage.holder == .camera else { return frame }
        let storage = frame.storage.withUnsafeBytes { bytes in
            FrameStorage(count: bytes.count) { $0.copyMemory(from: bytes) }
        }
        return try? Frame(format: frame.format, size: frame.size, bytesPerRow: frame.format.isCompressed ? nil : frame.bytesPerRow,
                          range: frame.range, storage: storage, sequence: frame.sequence,
                          timestampNanoseconds: frame.timestampNanoseconds)
    }
}
