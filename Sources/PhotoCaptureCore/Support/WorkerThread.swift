import Glibc

/// A detached POSIX thread that runs one closure: Foundation's `Thread` without Foundation
/// (which photocap does not load, to start fast).
enum WorkerThread {
    /// The closure, carried through pthread_create's one pointer.
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread; on the calling thread when no thread can be made.
    static func start(_ body: @escaping @Sendable () -> Void) {
        if spawn(body, detached: true) == nil { body() }
    }

    /// Runs `body` on a new thread that the caller ends with `pthread_join`; nil when no thread
    /// can be made (then `body` has not run).
    static func startJoinable(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
        spawn(body, detached: false)
    }

    private static func spawn(_ body: @escaping @Sendable () -> Void, detached: Bool) -> pthread_t? {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(detached ? PTHREAD_CREATE_DETACHED : PTHREAD_CREATE_JOINABLE))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { pointer in
            let work = Unmanaged<Work>.fromOpaque(pointer!).takeRetainedValue()
            work.body()
            return nil
        }, work)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return nil
        }
        return thread
    }
}
