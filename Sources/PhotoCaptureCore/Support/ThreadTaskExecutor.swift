import Glibc
import Synchronization

/// A task executor with one POSIX thread of its own, as AVFoundation gives each capture output
/// its own queue: a task that prefers it (`Task(executorPreference:)`) runs its nonisolated code
/// and the default actors it calls on that thread, so an app that fills Swift's cooperative pool
/// with blocking work does not stop it (SE-0417).
///
/// It also keeps timers (``schedule(after:_:)``), fired on the same thread: a bounded wait that
/// needs no pool thread to wake up. ``shutdown()`` ends the thread once the jobs already queued
/// have run; jobs that come later go to the global executor, so no task is ever stranded.
package final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    // Unchecked: `jobs`, `timers`, `nextTimer`, `isStopping` and `isStopped` are touched only
    // under `lock`.

    /// The process's timer thread, for bounded waits that must fire while the pool is full.
    package static let timers = ThreadTaskExecutor(name: "photocap.timers")

    private struct Timer {
        let deadline: UInt64
        let id: UInt64
        let body: @Sendable () -> Void
    }

    /// What the thread is for.
    package let name: String
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var timers: [Timer] = []
    private var nextTimer: UInt64 = 0
    private var isStopping = false
    private var isStopped = false

    /// Starts the thread; `name` says what it is for.
    package init(name: String) {
        self.name = name
        pthread_mutex_init(lock, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines are monotonic, like frame timestamps: a change of the wall clock moves none.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        WorkerThread.start { [self] in run() }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(lock)
        condition.deallocate()
        lock.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = locked { () -> Bool in
            guard !isStopped else { return false }
            jobs.append(job)
            pthread_cond_signal(condition)
            return true
        }
        if !accepted { globalConcurrentExecutor.enqueue(job) }
    }

    /// Calls `body` on this executor's thread once `delay` has passed, or never when the
    /// executor is shut down first.
    package func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = delay.components
        // Clamped to a century: a longer wait is as good as forever and cannot overflow.
        let deadline = MonotonicClock.now() + UInt64(min(max(seconds, 0), 3_155_760_000)) * 1_000_000_000
            + UInt64(max(attoseconds, 0) / 1_000_000_000)
        locked {
            nextTimer += 1
            timers.append(Timer(deadline: deadline, id: nextTimer, body: body))
            pthread_cond_signal(condition)
        }
    }

    /// Suspends the calling task for `duration`, or until it is cancelled, without a thread of
    /// the cooperative pool: the timer thread resumes it, and it carries on on its preferred
    /// executor.
    package static func sleep(for duration: Duration) async {
        let waker = Waker()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if waker.park(continuation) { timers.schedule(after: duration) { waker.wake() } }
            }
        } onCancel: {
            waker.wake()
        }
    }

    /// One sleeping task: woken once, by its timer or its cancellation, whichever comes first.
    private final class Waker: Sendable {
        private let state = Mutex<(isWoken: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

        /// Keeps `continuation` for ``wake()``; false, having resumed it, when already woken.
        func park(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
            let isWoken = state.withLock { (state) -> Bool in
                if !state.isWoken { state.continuation = continuation }
                return state.isWoken
            }
            if isWoken { continuation.resume() }
            return !isWoken
        }

        func wake() {
            let continuation = state.withLock { (state) -> CheckedContinuation<Void, Never>? in
                state.isWoken = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
    }

    /// Ends the thread after the jobs already queued; pending timers are dropped.
    package func shutdown() {
        locked {
            isStopping = true
            pthread_cond_signal(condition)
        }
    }

    private func run() {
        pthread_mutex_lock(lock)
        while true {
            if !jobs.isEmpty {
                let batch = jobs
                jobs = []
                pthread_mutex_unlock(lock)
                for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
                pthread_mutex_lock(lock)
                continue
            }
            if isStopping {
                isStopped = true
                timers = []
                pthread_mutex_unlock(lock)
                return
            }
            let now = MonotonicClock.now()
            let due = timers.filter { $0.deadline <= now }
            if !due.isEmpty {
                timers.removeAll { $0.deadline <= now }
                pthread_mutex_unlock(lock)
                for timer in due.sorted(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) }) { timer.body() }
                pthread_mutex_lock(lock)
                continue
            }
            if let next = timers.map(\.deadline).min() {
                var time = timespec(tv_sec: Int(next / 1_000_000_000), tv_nsec: Int(next % 1_000_000_000))
                pthread_cond_timedwait(condition, lock, &time)
            } else {
                pthread_cond_wait(condition, lock)
            }
        }
    }
}
