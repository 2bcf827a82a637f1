import Synchronization

/// Hands each value to every open `AsyncStream` made by ``stream(keepingNewest:)``.
final class Broadcast<Element: Sendable>: Sendable {
    private struct State {
        var next = 0
        var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
    }
    private let state = Mutex(State())

    /// A new stream of the values from now on; a slow reader keeps the newest `count`.
    func stream(keepingNewest count: Int) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(count))
        let id = state.withLock { state in
            defer { state.next += 1 }
            state.continuations[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) } }
        return stream
    }

    /// Gives `value` to every open stream.
    func yield(_ value: Element) {
        state.withLock { Array($0.continuations.values) }.forEach { $0.yield(value) }
    }

    /// Ends every open stream.
    func finish() {
        state.withLock { state in
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }.forEach { $0.finish() }
    }
}
