import Dispatch
import Synchronization

/// Recycles large buffers: the planes of released ``PlanarImage``s and the bytes of encoded
/// photos whose `Data` was let go.
///
/// A 12 MP image is 18 MB and its JPEG some 5 MB; memory that fresh comes from the kernel one
/// zeroed page at a time (a 2 MiB huge page is zeroed whole on its first touch), and in a
/// session taking photo after photo that zeroing costs about as much as copying the bytes.
/// Photos of one session share a size, and their files nearly so: buffers of a megabyte or more
/// are allocated in whole 2 MiB units and parked by that size, a few per size; smaller ones are
/// left to `malloc`, which recycles them itself.
package final class BufferPool: Sendable {
    package static let shared = BufferPool()

    package init() {}

    /// Buffers parked per capacity.
    private static let buffersPerSize = 3
    /// Bytes parked in all.
    private static let capacity = 256 << 20
    /// Buffers from this size on are recycled …
    private static let smallestRecycled = 1 << 20
    /// … and allocated in multiples of this.
    private static let granule = 2 << 20

    /// The bytes allocated for a recycled buffer of `byteCount` bytes; nil when it is not recycled.
    private static func recycledSize(for byteCount: Int) -> Int? {
        byteCount >= smallestRecycled ? (byteCount + granule - 1) & ~(granule - 1) : nil
    }

    private struct Parked {
        // Raw addresses: the buffers belong to the pool while parked.
        var buffers: [Int: [UInt]] = [:]
        var bytes = 0
        /// Buffers being made ready by ``prepare(byteCount:)``, by capacity: each signals once parked.
        var preparing: [Int: DispatchSemaphore] = [:]

        /// A parked buffer of `size`, no longer parked.
        mutating func pop(_ size: Int) -> UInt? {
            guard let address = buffers[size]?.popLast() else { return nil }
            bytes -= size
            return address
        }
    }
    /// How long ``take(byteCount:)`` waits for a buffer ``prepare(byteCount:)`` is making ready
    /// before it allocates one itself.
    private static let preparationWait = DispatchTimeInterval.seconds(1)
    private let parked = Mutex(Parked())

    /// A buffer of `byteCount` bytes, 64-byte aligned, contents undefined; give it back with
    /// ``give(_:)``.
    package func take(byteCount: Int) -> UnsafeMutableRawBufferPointer {
        guard let size = Self.recycledSize(for: byteCount) else { return LargeAllocation.allocate(byteCount: byteCount) }
        var (address, preparing) = parked.withLock { state in (state.pop(size), state.preparing[size]) }
        // The one being prepared is further along than a fresh one would be.
        if address == nil, let preparing, preparing.wait(timeout: .now() + Self.preparationWait) == .success {
            preparing.signal()  // for any other taker waiting on it
            address = parked.withLock { $0.pop(size) }
        }
        let pointer = address.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
            ?? LargeAllocation.allocate(byteCount: size).baseAddress!
        return UnsafeMutableRawBufferPointer(start: pointer, count: byteCount)
    }

    /// Makes a buffer for a later ``take(byteCount:)`` of `byteCount` bytes ready on another
    /// thread: allocated and every page touched, so the kernel zeroes the fresh memory (a 12 MP
    /// image's planes: 18 MB) while the caller does other work, such as starting the camera.
    /// Nothing happens for sizes that are not recycled, when such a buffer is parked or on its
    /// way, or when the pool is full.
    package func prepare(byteCount: Int) {
        guard let size = Self.recycledSize(for: byteCount) else { return }
        let ready = DispatchSemaphore(value: 0)
        let started = parked.withLock { state -> Bool in
            guard state.buffers[size, default: []].isEmpty, state.preparing[size] == nil,
                  state.bytes + size <= Self.capacity else { return false }
            state.preparing[size] = ready
            return true
        }
        guard started else { return }
        DispatchQueue.global(qos: .userInitiated).async {
            let buffer = LargeAllocation.allocate(byteCount: size)
            LargeAllocation.touch(buffer)
            self.parked.withLock { state in
                state.preparing[size] = nil
                state.buffers[size, default: []].append(UInt(bitPattern: buffer.baseAddress))
                state.bytes += size
            }
            ready.signal()
        }
    }

    /// Parks `buffer` (from ``take(byteCount:)``, with the count asked for) for reuse, or frees
    /// it when the pool is full.
    package func give(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let size = Self.recycledSize(for: buffer.count) else { return LargeAllocation.deallocate(buffer) }
        let kept = parked.withLock { state -> Bool in
            guard state.bytes + size <= Self.capacity,
                  state.buffers[size, default: []].count < Self.buffersPerSize else { return false }
            state.buffers[size, default: []].append(UInt(bitPattern: buffer.baseAddress))
            state.bytes += size
            return true
        }
        if !kept { LargeAllocation.deallocate(buffer) }
    }

    /// Frees the parked buffers (a pool preparing one is kept alive until it is parked).
    deinit {
        parked.withLock { state in
            for address in state.buffers.values.joined() {
                LargeAllocation.deallocate(UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(bitPattern: address), count: 0))
            }
        }
    }
}
