import Dispatch
import Synchronization

/// Runs `first` and `second` on two threads and returns both results once both have finished.
///
/// The closures need not be `Sendable`: each runs exactly once, and both have returned before
/// this function does, so nothing they capture is shared beyond the call.
func inParallel<A, B>(_ first: () throws -> A, _ second: () throws -> B) throws -> (A, B) {
    try withoutActuallyEscaping(first) { first in
        try withoutActuallyEscaping(second) { second in
            let work = UncheckedSendable((first, second))
            let results = Mutex<UncheckedSendable<(Result<A, any Error>?, Result<B, any Error>?)>>(UncheckedSendable((nil, nil)))
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    let result = Result { try work.value.0() }
                    results.withLock { $0 = UncheckedSendable((result, $0.value.1)) }
                } else {
                    let result = Result { try work.value.1() }
                    results.withLock { $0 = UncheckedSendable(($0.value.0, result)) }
                }
            }
            let (a, b) = results.withLock { $0.value }
            return (try a!.get(), try b!.get())
        }
    }
}

/// A value handed across threads under a guarantee the compiler cannot see.
struct UncheckedSendable<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
