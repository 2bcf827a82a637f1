import Foundation
import Imaging
import Testing

/// Where large buffers' memory comes from: huge pages for buffers written in full, pages backed
/// one by one as they are written for worst-case buffers written in part.
@Suite struct LargeAllocationTests {
    /// Above the 4 MiB from which buffers are mapped, so each buffer is a fresh mapping.
    static let count = 40_000_000
    static let written = 1 << 20

    /// Whether this kernel offers transparent huge pages on request (or always).
    static var hugePagesOffered: Bool {
        guard let setting = try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8) else {
            return false
        }
        return setting.contains("[madvise]") || setting.contains("[always]")
    }

    @Test func aBufferWrittenInPartIsBackedOnlyWhereWritten() {
        let buffer = LargeAllocation.allocate(byteCount: Self.count, writtenInFull: false)
        defer { LargeAllocation.deallocate(buffer) }
        // The allocator's own header may share the first page.
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        #expect(LargeAllocation.residentBytes(of: UnsafeRawBufferPointer(buffer)) <= page)
        buffer.baseAddress!.initializeMemory(as: UInt8.self, repeating: 0x5A, count: Self.written)
        // A huge page would hold 2 MiB after the first write.
        let resident = LargeAllocation.residentBytes(of: UnsafeRawBufferPointer(buffer))
        #expect(resident >= Self.written && resident <= Self.written + page, "\(resident) bytes in memory after writing \(Self.written)")
    }

    @Test(.enabled(if: hugePagesOffered)) func aBufferWrittenInFullAsksForHugePages() throws {
        let buffer = LargeAllocation.allocate(byteCount: Self.count)
        defer { LargeAllocation.deallocate(buffer) }
        #expect(UInt(bitPattern: buffer.baseAddress!) % (2 << 20) == 0)
        // The advice shows as the mapping's "hg" flag, whether or not a huge page was free.
        #expect(try Self.mappingFlags(containing: buffer.baseAddress!).contains("hg"))
    }

    /// The `VmFlags` of the mapping of this process that holds `address` (/proc/self/smaps).
    static func mappingFlags(containing address: UnsafeMutableRawPointer) throws -> [Substring] {
        let target = UInt(bitPattern: address)
        // Read to the end: String(contentsOfFile:) stops after a page of a /proc file.
        let smaps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps")).readToEnd() ?? Data()
        var inside = false
        for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
               let start = UInt(line[..<dash], radix: 16), let end = UInt(line[line.index(after: dash)..<space], radix: 16) {
                inside = (start..<end).contains(target)
            } else if inside, line.hasPrefix("VmFlags:") {
                return line.dropFirst("VmFlags:".count).split(separator: " ")
            }
        }
        Issue.record("no mapping holds \(address)")
        return []
    }
}
