import Glibc
import Imaging
import Testing

/// Where large buffers' memory comes from: huge pages for buffers written in full, pages backed
/// one by one as they are written for worst-case buffers written in part.
@Suite struct LargeAllocationTests {
    /// Above glibc's largest mmap threshold (32 MiB), so each buffer is a fresh mapping.
    static let count = 40_000_000
    static let written = 1 << 20

    /// Whether this kernel offers transparent huge pages on request (or always).
    static var hugePagesOffered: Bool {
        guard let file = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r") else { return false }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 128)
        guard fgets(&line, Int32(line.count), file) != nil else { return false }
        let setting = Self.text(line)
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

    /// A line `fgets` read.
    static func text(_ line: [CChar]) -> String {
        String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The `VmFlags` of the mapping of this process that holds `address` (/proc/self/smaps).
    static func mappingFlags(containing address: UnsafeMutableRawPointer) throws -> [Substring] {
        let target = UInt(bitPattern: address)
        let file = try #require(fopen("/proc/self/smaps", "r"))
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        var inside = false
        while fgets(&line, Int32(line.count), file) != nil {
            let text = Self.text(line)
            if let dash = text.firstIndex(of: "-"), let space = text.firstIndex(of: " "), dash < space,
               let start = UInt(text[..<dash], radix: 16), let end = UInt(text[text.index(after: dash)..<space], radix: 16) {
                inside = (start..<end).contains(target)
            } else if inside, text.hasPrefix("VmFlags:") {
                return text.dropFirst("VmFlags:".count).split(whereSeparator: { $0 == " " || $0 == "\n" })
            }
        }
        Issue.record("no mapping holds \(address)")
        return []
    }
}
