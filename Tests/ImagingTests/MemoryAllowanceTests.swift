import Foundation
@testable import Imaging
import Testing
import TestSupport

/// The memory a process may use, read from fixture folders laid out like a machine's `/proc` and
/// `/sys/fs/cgroup`, in the kernel's own formats (cgroup v2, v1 as Debian 12 containers mount it).
@Suite struct MemoryAllowanceTests {
    /// A fixture root holding `files` (relative path → contents).
    static func root(_ files: [String: String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory("photocap-memory-fixture")
        for (path, text) in files {
            let url = folder.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    static let meminfo = """
        MemTotal:       24420216 kB
        MemFree:        19102524 kB
        MemAvailable:    2097152 kB
        Buffers:          215804 kB
        Cached:          3120852 kB

        """

    /// A machine whose `/proc/self/cgroup` reads `cgroup`, with `limits` (path under
    /// `sys/fs/cgroup` → contents) and ``meminfo``.
    struct Machine {
        let cgroup: String
        let limits: [String: String]
        let limit: Int
        let source: String
    }

    static let machines = [
        // cgroup v2: the lowest memory.max of the group and its ancestors, "max" meaning none.
        Machine(cgroup: "0::/user.slice/app.scope\n",
                limits: ["user.slice/app.scope/memory.max": "max\n", "user.slice/memory.max": "1073741824\n"],
                limit: 1_073_741_824, source: "the memory limit of cgroup /user.slice, ROOT/sys/fs/cgroup/user.slice/memory.max"),
        // cgroup v1 (as this machine mounts it): the near-2^63 "no limit" of the parent is none.
        Machine(cgroup: "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/fd0a\n3:cpuset:/\n0::/\n",
                limits: ["memory/process_api/fd0a/memory.limit_in_bytes": "536870912\n",
                         "memory/process_api/memory.limit_in_bytes": "9223372036854771712\n"],
                limit: 536_870_912,
                source: "the memory limit of cgroup /process_api/fd0a, ROOT/sys/fs/cgroup/memory/process_api/fd0a/memory.limit_in_bytes"),
    ]

    @Test("the cgroup's limit, v2 and v1, when lower than MemAvailable, named with its file", arguments: machines.indices)
    func cgroupLimit(_ index: Int) throws {
        let machine = Self.machines[index]
        var files = ["proc/self/cgroup": machine.cgroup, "proc/meminfo": Self.meminfo]
        for (path, text) in machine.limits { files["sys/fs/cgroup/" + path] = text }
        let root = try Self.root(files)
        let allowance = try #require(MemoryAllowance.read(root: root.url.path))
        #expect(allowance.bytes == machine.limit)
        #expect(allowance.source == machine.source.replacingOccurrences(of: "ROOT", with: root.url.path))
    }

    @Test("MemAvailable (kB) when it is lower than the cgroup's limit, or when there is no limit")
    func memAvailable() throws {
        let unlimited = try Self.root([
            "proc/self/cgroup": "4:memory:/\n0::/\n",
            "proc/meminfo": Self.meminfo,
            "sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
        ])
        let allowance = try #require(MemoryAllowance.read(root: unlimited.url.path))
        #expect(allowance.bytes == 2_097_152 * 1024)
        #expect(allowance.source == "MemAvailable in \(unlimited.url.path)/proc/meminfo")
        let higherLimit = try Self.root([
            "proc/self/cgroup": "0::/a\n",
            "proc/meminfo": Self.meminfo,
            "sys/fs/cgroup/a/memory.max": "8589934592\n",
        ])
        #expect(MemoryAllowance.read(root: higherLimit.url.path)?.bytes == 2_097_152 * 1024)
        let empty = try Self.root([:])
        #expect(MemoryAllowance.read(root: empty.url.path) == nil)
        #expect(MemoryAllowance.memAvailable(meminfo: "MemTotal: 1 kB\n") == nil)
    }

    @Test("this machine: a figure is read, no more than MemTotal")
    func thisMachine() throws {
        let allowance = try #require(MemoryAllowance.current())
        let total = try String(contentsOfFile: "/proc/meminfo", encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("MemTotal:") }.flatMap { Int($0.split(separator: " ")[1]) }.map { $0 * 1024 }
        let memTotal = try #require(total)
        #expect(allowance.bytes > 0 && allowance.bytes <= memTotal)
    }
}
