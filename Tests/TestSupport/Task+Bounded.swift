import Synchronization

extension Task {
    /// The task's result, or nil when it has not ended within `limit` (the task goes on; the
    /// caller decides whether to cancel it). A test's wait for a server or a camera to stop is
    /// bounded by it, so a hang fails the test rather than the whole run.
    public func result(within limit: Duration) async -> Result<Success, Failure>? {
        let claim = FirstClaim()
        return await withCheckedContinuation { continuation in
            let timer = Task<Void, Never> {
                try? await Task<Never, Never>.sleep(for: limit)
                if claim.take() { continuation.resume(returning: nil) }
            }
            Task<Void, Never> {
                let result = await self.result
                if claim.take() { continuation.resume(returning: result) }
                timer.cancel()
            }
        }
    }
}

/// True for the first caller only: whichever of the task and the timer ends first resumes.
private final class FirstClaim: Sendable {
    private let taken = Atomic(false)

    func take() -> Bool {
        taken.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}
