import Foundation
import Imaging
import Testing

/// A strip's thread moved to a processor of its own as it starts, and free to run anywhere
/// afterwards, as the kernel reports it (`Cpus_allowed_list` of /proc/thread-self/status).
@Suite struct ProcessorPlacementTests {
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

    @Test("moved to the n-th processor it may use (modulo their number), and free to run on all again")
    func movingPlacesTheThreadAndLeavesItFree() throws {
        // On a thread of its own, so the test runner's threads keep their placement whatever happens.
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            do {
                let before = try Self.allowedList()
                let allowed = Self.processors(in: before)
                for index in 0..<(allowed.count + 1) {
                    let moved = Processors.moveCurrentThread(to: index)
                    // One processor: nothing to spread over, nothing changes.
                    #expect(moved == (allowed.count > 1 ? allowed[index % allowed.count] : nil), "index \(index) of \(before)")
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
