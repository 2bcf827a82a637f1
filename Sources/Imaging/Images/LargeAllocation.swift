import Glibc
import Synchronization

/// Memory for frames and planes: 64-byte aligned, and for buffers of megabytes asked to be
/// backed by transparent huge pages.
///
/// Fresh memory comes from the kernel one zeroed 4 KiB page at a time: a 12 MP RGB frame is
/// some 9,000 page faults, which cost more than converting it. Where the system offers huge
/// pages on request (`/sys/kernel/mm/transparent_hugepage/enabled` says `madvise`, Debian's
/// default), a 2 MiB-aligned buffer advised with `MADV_HUGEPAGE` takes one fault per 2 MiB;
/// elsewhere the advice is ignored and nothing changes.
///
/// Those buffers are mapped from the kernel directly and unmapped when released. From `malloc`,
/// a freed 18 MB buffer raises glibc's threshold for mapping, and later ones come from the heap
/// of the allocating thread's arena, which keeps them when they are freed: a long session's
/// memory then grew by a frame each time another thread first made one (up to eight arenas a
/// core), although nothing was leaked.
package enum LargeAllocation {
    /// Buffers from this size on are mapped; those written in full are aligned to 2 MiB and advised.
    static let hugePageThreshold = 4 << 20
    static let hugePageSize = 2 << 20

    /// `byteCount` bytes (at least 1), contents undefined; release with ``deallocate(_:)``.
    ///
    /// A buffer that is not `writtenInFull` — sized for a worst case of which a part is written,
    /// like an encoder's output — stays on 4 KiB pages, each backed when first written: a huge
    /// page is zeroed whole on the first write into it, and a fresh one can be slow to come by
    /// (in a VM whose host took back the guest's free 2 MiB blocks, 5 ms for one, measured here).
    /// A large one is mapped too: from `malloc` it could be heap memory another buffer had
    /// already backed.
    package static func allocate(byteCount: Int, writtenInFull: Bool = true) -> UnsafeMutableRawBufferPointer {
        if byteCount >= hugePageThreshold {
            guard writtenInFull else { return UnsafeMutableRawBufferPointer(start: mappedOnSmallPages(byteCount), count: byteCount) }
            // Rounded up to whole huge pages: a tail left on 4 KiB pages (0.9 MB of a 12 MP RGB
            // frame) would take a fault per page, some 250 of them.
            let count = (byteCount + hugePageSize - 1) & ~(hugePageSize - 1)
            return UnsafeMutableRawBufferPointer(start: mapped(count), count: byteCount)
        }
        let count = max(byteCount, 1)
        var pointer: UnsafeMutableRawPointer?
        guard posix_memalign(&pointer, 64, count) == 0, let pointer else {
            fatalError("out of memory allocating \(count) bytes")
        }
        return UnsafeMutableRawBufferPointer(start: pointer, count: byteCount)
    }

    /// Mapped buffers by address, with their lengths, which ``deallocate(_:)`` unmaps.
    private static let mappings = Mutex<[UInt: Int]>([:])

    /// `count` bytes (whole huge pages) mapped at a huge page's boundary and advised.
    private static func mapped(_ count: Int) -> UnsafeMutableRawPointer {
        // Mapped a huge page longer, so that an aligned start lies inside; the ends are unmapped.
        let length = count + hugePageSize
        let base = anonymousMapping(length)
        let start = (UInt(bitPattern: base) + UInt(hugePageSize - 1)) & ~UInt(hugePageSize - 1)
        let head = Int(start - UInt(bitPattern: base))
        if head > 0 { munmap(base, head) }
        if length - head - count > 0 { munmap(UnsafeMutableRawPointer(bitPattern: start + UInt(count)), length - head - count) }
        let pointer = UnsafeMutableRawPointer(bitPattern: start)!
        return recorded(pointer, count, advice: MADV_HUGEPAGE)
    }

    /// `count` bytes mapped and advised against huge pages (which the kernel's `always` setting
    /// would otherwise give an aligned stretch).
    private static func mappedOnSmallPages(_ count: Int) -> UnsafeMutableRawPointer {
        recorded(anonymousMapping(count), count, advice: MADV_NOHUGEPAGE)
    }

    private static func anonymousMapping(_ length: Int) -> UnsafeMutableRawPointer {
        guard let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              base != MAP_FAILED else { fatalError("out of memory mapping \(length) bytes") }
        return base
    }

    /// `pointer`'s `count` bytes advised with `advice` and remembered for ``deallocate(_:)``.
    private static func recorded(_ pointer: UnsafeMutableRawPointer, _ count: Int, advice: Int32) -> UnsafeMutableRawPointer {
        _ = madvise(pointer, count, advice)
        mappings.withLock { $0[UInt(bitPattern: pointer)] = count }
        return pointer
    }

    /// Writes a byte into every 4 KiB page of `buffer`, so the kernel backs it now (a huge
    /// page on the first write into each 2 MiB of an advised buffer).
    package static func touch(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        for offset in stride(from: 0, to: buffer.count, by: 4096) { base.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self) }
    }

    /// Bytes of the pages of `buffer` that are in memory (`mincore`); 0 if the kernel cannot say.
    package static func residentBytes(of buffer: UnsafeRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        // mincore takes a page-aligned start.
        let start = UInt(bitPattern: base) & ~UInt(page - 1)
        let length = Int(UInt(bitPattern: base) - start) + buffer.count
        var resident = [UInt8](repeating: 0, count: (length + page - 1) / page)
        guard mincore(UnsafeMutableRawPointer(bitPattern: start), length, &resident) == 0 else { return 0 }
        return resident.reduce(0) { $0 + Int($1 & 1) } * page
    }

    /// Releases a buffer from ``allocate(byteCount:writtenInFull:)``.
    package static func deallocate(_ buffer: UnsafeMutableRawBufferPointer) {
        let address = UInt(bitPattern: buffer.baseAddress)
        if let count = mappings.withLock({ $0.removeValue(forKey: address) }) {
            munmap(buffer.baseAddress, count)
        } else {
            free(buffer.baseAddress)
        }
    }
}
