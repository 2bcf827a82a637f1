import CImagingKernels
import FoundationEssentials

/// The processors this process may use, read once: `activeProcessorCount` reads the cgroup's
/// files at every call (some 14 µs), and a photo asked several times.
package enum Processors {
    package static let active = ProcessInfo.processInfo.activeProcessorCount

    /// Pins the calling thread to the `index`-th processor it may use (modulo their number)
    /// until ``Pin/release()``: for the parts of one job split across threads, one part per
    /// processor.
    ///
    /// Left to itself, the scheduler placed both strips of a photo on one processor when the
    /// other was busy as they started (the camera's thread, a prefetch) and kept them there,
    /// taking turns, for the whole encode after the other processor fell idle: perf, per
    /// processor, saw one `shoot` in two encode on one core.
    package static func pin(to index: Int) -> Pin {
        Pin(previous: pc_thread_pin(Int32(truncatingIfNeeded: index)))
    }

    /// A thread's pinning by ``Processors/pin(to:)``; release it once, on the same thread.
    package struct Pin {
        fileprivate let previous: UnsafeMutableRawPointer?

        /// Lets the thread run on every processor it could before.
        package func release() {
            pc_thread_unpin(previous)
        }
    }
}
