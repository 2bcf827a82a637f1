import Glibc

/// Memory for frames and planes: 64-byte aligned, and for buffers of megabytes asked to be
/// backed by transparent huge pages.
///
/// Fresh memory comes from the kernel one zeroed 4 KiB page at a time: a 12 MP RGB frame is
/// some 9,000 page faults, which cost more than converting it. Where the system offers huge
/// pages on request (`/sys/kernel/mm/transparent_hugepage/enabled` says `madvise`, Debian's
/// default), a 2 MiB-aligned buffer advised with `MADV_HUGEPAGE` takes one fault per 2 MiB;
/// elsewhere the advice is ignored and nothing changes.
package enum LargeAllocation {
    /// Buffers from this size on are aligned to 2 MiB and advised.
    static let hugePageThreshold = 4 << 20
    static let hugePageSize = 2 << 20

    /// `byteCount` bytes (at least 1), contents undefined; release with ``deallocate(_:)``.
    ///
    /// A buffer that is not `writtenInFull` — sized for a worst case of which a part is written,
    /// like an encoder's output — stays on 4 KiB pages, each backed when first written: a huge
    /// page is zeroed whole on the first write into it, and a fresh one can be slow to come by
    /// (in a VM whose host took back the guest's free 2 MiB blocks, 5 ms for one, measured here).
    package static func allocate(byteCount: Int, writtenInFull: Bool = true) -> UnsafeMutableRawBufferPointer {
        let large = writtenInFull && byteCount >= hugePageThreshold
        // A large buffer is rounded up to whole huge pages: a tail left on 4 KiB pages (0.9 MB
        // of a 12 MP RGB frame) would take a fault per page, some 250 of them.
        let count = large ? (byteCount + hugePageSize - 1) & ~(hugePageSize - 1) : max(byteCount, 1)
        var pointer: UnsafeMutableRawPointer?
        guard posix_memalign(&pointer, large ? hugePageSize : 64, count) == 0, let pointer else {
            fatalError("out of memory allocating \(count) bytes")
        }
        if large { _ = madvise(pointer, count, Int32(MADV_HUGEPAGE)) }
        return UnsafeMutableRawBufferPointer(start: pointer, count: byteCount)
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
        free(buffer.baseAddress)
    }
}
