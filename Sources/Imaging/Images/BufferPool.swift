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
    }
    private let parked = Mutex(Parked())

    /// A buffer of `byteCount` bytes, 64-byte aligned, contents undefined; give it back with
    /// ``give(_:)``.
    package func take(byteCount: Int) -> UnsafeMutableRawBufferPointer {
        guard let size = Self.recycledSize(for: byteCount) else { return LargeAllocation.allocate(byteCount: byteCount) }
        let address = parked.withLock { state -> UInt? in
            guard let address = state.buffers[size]?.popLast() else { return nil }
            state.bytes -= size
            return address
        }
        let pointer = address.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
            ?? LargeAllocation.allocate(byteCount: size).baseAddress!
        return UnsafeMutableRawBufferPointer(start: pointer, count: byteCount)
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
}
