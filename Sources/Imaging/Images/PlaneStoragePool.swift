import Synchronization

/// Recycles the memory of released ``PlanarImage``s.
///
/// A 12 MP image is 18 MB; memory that fresh comes from the kernel one zeroed page at a time,
/// and those page faults cost as much as the whole conversion pass. Photos of one session
/// share a size, so a few parked buffers per size remove that cost.
final class PlaneStoragePool: Sendable {
    static let shared = PlaneStoragePool()

    /// Buffers parked per size.
    private static let buffersPerSize = 3
    /// Bytes parked in all.
    private static let capacity = 256 << 20

    private struct Parked {
        // Raw addresses: the buffers belong to the pool while parked.
        var buffers: [Int: [UInt]] = [:]
        var bytes = 0
    }
    private let parked = Mutex(Parked())

    /// A buffer of exactly `byteCount` bytes, 64-byte aligned, contents undefined.
    func take(byteCount: Int) -> UnsafeMutableRawBufferPointer {
        let address = parked.withLock { state -> UInt? in
            guard let address = state.buffers[byteCount]?.popLast() else { return nil }
            state.bytes -= byteCount
            return address
        }
        if let address, let pointer = UnsafeMutableRawPointer(bitPattern: address) {
            return UnsafeMutableRawBufferPointer(start: pointer, count: byteCount)
        }
        return LargeAllocation.allocate(byteCount: byteCount)
    }

    /// Parks `buffer` for reuse, or frees it when the pool is full.
    func give(_ buffer: UnsafeMutableRawBufferPointer) {
        let count = buffer.count
        let kept = parked.withLock { state -> Bool in
            guard state.bytes + count <= Self.capacity,
                  state.buffers[count, default: []].count < Self.buffersPerSize else { return false }
            state.buffers[count, default: []].append(UInt(bitPattern: buffer.baseAddress))
            state.bytes += count
            return true
        }
        if !kept { LargeAllocation.deallocate(buffer) }
    }
}
