import FoundationEssentials

/// The processors this process may use, read once: `activeProcessorCount` reads the cgroup's
/// files at every call (some 14 µs), and a photo asked several times.
package enum Processors {
    package static let active = ProcessInfo.processInfo.activeProcessorCount
}
