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
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { pointer in
            let work = Unmanaged<Work>.fromOpaque(pointer!).takeRetainedValue()
            work.body()
            return nil
        }, work)
        if status != 0 { Unmanaged<Work>.fromOpaque(work).takeRetainedValue().body() }
    }
}
