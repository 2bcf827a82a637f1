import CImagingKernels
import FoundationEssentials

/// The processors this process may use, read once: `activeProcessorCount` reads the cgroup's
/// files at every call (some 14 µs), and a photo asked several times.
package enum Processors {
    package static let active = ProcessInfo.processInfo.activeProcessorCount

    /// Moves the calling thread to the `index`-th processor it may use (modulo their number),
    /// and lets it run on all of them again: for the parts of one job split across threads, one
    /// part starting on each processor. Returns the processor it was moved to; nil when there is
    /// one processor or the system refused.
    ///
    /// Left to itself, the scheduler sometimes kept both strips of a photo on one processor;
    /// moved rather than pinned, a thread can still leave a processor that other work takes
    /// (the measurements are in the Performance article).
    @discardableResult
    package static func moveCurrentThread(to index: Int) -> Int? {
        let processor = pc_thread_move(Int32(truncatingIfNeeded: index))
        return processor < 0 ? nil : Int(processor)
    }
}
