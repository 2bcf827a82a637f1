import Imaging
import Testing

/// The recycling that spares a session's photos freshly zeroed memory: buffers of a megabyte or
/// more come back for any size in the same 2 MiB unit, a few per unit.
@Suite struct BufferPoolTests {
    @Test func aReleasedBufferIsHandedOutAgainForAnySizeInItsUnit() {
        let pool = BufferPool()
        let first = pool.take(byteCount: 5_000_000)
        pool.give(first)
        // 5,000,000 and 6,000,000 bytes both take three 2 MiB units.
        let second = pool.take(byteCount: 6_000_000)
        #expect(second.baseAddress == first.baseAddress)
        #expect(second.count == 6_000_000)
        // Writable to its last byte: the unit holds the larger size.
        second.storeBytes(of: 0xA5, toByteOffset: second.count - 1, as: UInt8.self)
        pool.give(second)
    }

    @Test func anotherUnitGetsAnotherBuffer() {
        let pool = BufferPool()
        let small = pool.take(byteCount: 5_000_000)
        let large = pool.take(byteCount: 7_000_000)  // four units: a size of its own
        pool.give(small)
        let next = pool.take(byteCount: 7_000_000)
        #expect(next.baseAddress != small.baseAddress)
        pool.give(large)
        pool.give(next)
    }

    @Test func buffersOfOneUnitComeBackInTurn() {
        let pool = BufferPool()
        let buffers = (0..<3).map { _ in pool.take(byteCount: 3_000_000) }
        buffers.forEach(pool.give)
        let again = (0..<3).map { _ in pool.take(byteCount: 2_500_000) }
        #expect(Set(again.map(\.baseAddress)) == Set(buffers.map(\.baseAddress)))
        again.forEach(pool.give)
    }
}
