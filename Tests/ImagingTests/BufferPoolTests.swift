import Glibc
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

    /// The share of `buffer`'s pages the kernel holds in memory.
    static func residentShare(of buffer: UnsafeMutableRawBufferPointer) -> Double {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = (buffer.count + page - 1) / page
        return Double(LargeAllocation.residentBytes(of: UnsafeRawBufferPointer(buffer)) / page) / Double(pages)
    }

    /// Above glibc's largest mmap threshold (32 MiB), so a fresh buffer is a fresh mapping.
    static let largeCount = 40_000_000

    @Test func aPreparedBufferIsHandedOutWithEveryPageInMemory() {
        let pool = BufferPool()
        pool.prepare(byteCount: Self.largeCount)
        // Waits for the preparation on the other thread.
        let prepared = pool.take(byteCount: Self.largeCount)
        #expect(Self.residentShare(of: prepared) == 1)
        pool.give(prepared)
    }

    @Test func withoutPreparingAFreshBufferHasNoPageInMemoryYet() {
        let pool = BufferPool()
        let fresh = pool.take(byteCount: Self.largeCount)
        #expect(Self.residentShare(of: fresh) == 0)
        pool.give(fresh)
    }

    @Test func preparingWhileOneIsParkedDoesNothing() {
        let pool = BufferPool()
        let first = pool.take(byteCount: Self.largeCount)
        pool.give(first)
        pool.prepare(byteCount: Self.largeCount)
        let again = pool.take(byteCount: Self.largeCount)
        #expect(again.baseAddress == first.baseAddress)
        let another = pool.take(byteCount: Self.largeCount)
        #expect(Self.residentShare(of: another) == 0, "a second buffer was prepared")
        pool.give(again)
        pool.give(another)
    }

    @Test func aFullPoolPreparesNothing() {
        let pool = BufferPool()
        // Three parked buffers each of 40, 42 and 44 MB (untouched, so cheap): 378 MB asked,
        // the pool parks up to its 256 MB and frees the rest.
        let sizes = [40_000_000, 42_000_000, 44_000_000]
        let buffers = sizes.flatMap { size in (0..<3).map { _ in pool.take(byteCount: size) } }
        buffers.forEach(pool.give)
        pool.prepare(byteCount: 50_000_000)
        let next = pool.take(byteCount: 50_000_000)
        #expect(Self.residentShare(of: next) == 0, "a buffer was prepared past the pool's capacity")
        pool.give(next)
    }
}
