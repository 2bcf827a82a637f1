/// Runs `body`, then `cleanUp`, whether `body` returned or threw, before it returns: the
/// asynchronous clean-up a `defer` cannot await. One left to an unstructured task
/// (`defer { Task { ... } }`) can outlive the test: a camera still open when the next test
/// reloads its driver, or a process exiting under the stop.
public func cleaningUp<T>(after body: () async throws -> T, _ cleanUp: () async -> Void) async throws -> T {
    do {
        let result = try await body()
        await cleanUp()
        return result
    } catch {
        await cleanUp()
        throw error
    }
}
