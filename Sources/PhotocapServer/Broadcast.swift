import FoundationEssentials
import Synchronization

/// Hands each element to every open stream: capture events to the event streams.
///
/// Each stream keeps at most `buffering` elements for a reader that does not keep up and drops
/// the oldest beyond them: a slow viewer costs bounded memory and never slows a capture.
package final class Broadcast<Element: Sendable>: Sendable {
    private struct State {
        var streams: [UUID: AsyncStream<Element>.Continuation] = [:]
        var isClosed = false
    }
    private let state = Mutex(State())
    private let buffering: Int

    /// A broadcast whose streams keep at most `buffering` elements each.
    package init(buffering: Int) { self.buffering = buffering }

    /// A new stream of the elements published from now on, and its ID for ``close(_:)``; nil
    /// once ``closeAll()`` was called (the server is stopping).
    package func subscribe() -> (id: UUID, elements: AsyncStream<Element>)? {
        let (elements, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(buffering))
        let id = UUID()
        let added = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.streams[id] = continuation
            return true
        }
        guard added else { return nil }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
        return (id, elements)
    }

    /// Ends the stream `id`.
    package func close(_ id: UUID) {
        state.withLock { $0.streams.removeValue(forKey: id) }?.finish()
    }

    /// Sends `element` to every stream.
    package func publish(_ element: Element) {
        for continuation in state.withLock({ Array($0.streams.values) }) { continuation.yield(element) }
    }

    /// Ends every stream and refuses new ones: the server is stopping.
    package func closeAll() {
        let streams = state.withLock { state in
            state.isClosed = true
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        for continuation in streams { continuation.finish() }
    }

    /// How many streams are open.
    package var streamCount: Int { state.withLock { $0.streams.count } }
}

extension Broadcast where Element == String {
    /// Sends `event` as one line of JSON.
    package func publish(_ event: CaptureEvent) {
        guard let line = try? event.jsonLine() else { return }
        publish(line)
    }
}
