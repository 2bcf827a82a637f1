import Foundation
import Imaging
import Testing

/// A strip's thread pinned to one processor while it works, and let go afterwards, as the
/// kernel reports it (`Cpus_allowed_list` of /proc/thread-self/status).
@Suite struct ProcessorPinTests {
    /// The processors the calling thread may run on, as the kernel lists them ("0-1", "1").
    static func allowedList() throws -> String {
        let status = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        return line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
    }

    /// The processor numbers in a list such as "0-3,6".
    static func processors(in list: String) -> [Int] {
        list.split(separator: ",").flatMap { part -> [Int] in
            let bounds = part.split(separator: "-").compactMap { Int($0) }
            return bounds.count == 2 ? Array(bounds[0]...bounds[1]) : bounds
        }
    }

    @Test("pinned to the n-th processor it may use (modulo their number), then free again")
    func pinningPlacesTheThreadAndReleasingRestoresIt() throws {
        // On a thread of its own, so the test runner's threads keep their placement whatever happens.
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            do {
                let before = try Self.allowedList()
                let allowed = Self.processors(in: before)
                for index in 0..<(allowed.count + 1) {
                    let pin = Processors.pin(to: index)
                    let pinned = try Self.allowedList()
                    pin.release()
                    // One processor: nothing to spread over, nothing changes.
                    #expect(pinned == (allowed.count > 1 ? String(allowed[index % allowed.count]) : before),
                            "index \(index) of \(before)")
                    #expect(try Self.allowedList() == before)
                }
            } catch {
                Issue.record(error)
            }
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 30) == .success)
    }
}
