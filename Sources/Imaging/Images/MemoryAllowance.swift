import FoundationEssentials

/// How many bytes this process may use, and where that figure comes from: the lower of its
/// control group's memory limit (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`, the
/// group's ancestors included) and the kernel's `MemAvailable` estimate in `/proc/meminfo`.
/// Past it the kernel kills the process instead of failing an allocation, so a decode that
/// cannot fit is refused before it starts.
public struct MemoryAllowance: Sendable, Hashable, CustomStringConvertible {
    /// The bytes the process may use.
    public let bytes: Int
    /// Where ``bytes`` was read ("the memory limit of cgroup /a, /sys/fs/cgroup/a/memory.max").
    public let source: String

    /// An allowance of `bytes`, read from `source`.
    public init(bytes: Int, source: String) {
        (self.bytes, self.source) = (bytes, source)
    }

    /// "1073741824 bytes (1.1 GB, the memory limit of cgroup /a (…))".
    public var description: String { "\(bytes) bytes (\(Self.gigabytes(bytes)), \(source))" }

    /// What the running process may use, or nil when neither figure can be read.
    public static func current() -> MemoryAllowance? { read(root: "/") }

    /// The allowance read from the files under `root` (`/` for this machine; a fixture folder
    /// laid out like one for tests): `proc/self/cgroup`, `proc/meminfo` and `sys/fs/cgroup`.
    package static func read(root: String) -> MemoryAllowance? {
        let candidates = [cgroupLimit(root: root), memAvailable(root: root)].compactMap { $0 }
        return candidates.min { $0.bytes < $1.bytes }
    }

    /// `MemAvailable` of `/proc/meminfo`.
    static func memAvailable(root: String) -> MemoryAllowance? {
        let path = join(root, "proc/meminfo")
        guard let text = contents(path), let bytes = memAvailable(meminfo: text) else { return nil }
        return MemoryAllowance(bytes: bytes, source: "MemAvailable in \(path)")
    }

    /// The `MemAvailable:   123 kB` line of a meminfo text, in bytes.
    static func memAvailable(meminfo: String) -> Int? {
        for line in meminfo.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.dropFirst("MemAvailable:".count).split(separator: " ")
            guard let value = fields.first.flatMap({ Int($0) }) else { return nil }
            let unit = fields.count > 1 && fields[1].lowercased() == "kb" ? 1024 : 1
            return value.multipliedReportingOverflow(by: unit).overflow ? nil : value * unit
        }
        return nil
    }

    /// The lowest memory limit on the process's cgroup and its ancestors, v2 or v1.
    static func cgroupLimit(root: String) -> MemoryAllowance? {
        guard let text = contents(join(root, "proc/self/cgroup")) else { return nil }
        var limits: [MemoryAllowance] = []
        for line in text.split(separator: "\n") {
            // "ID:CONTROLLERS:PATH"; the path may itself hold colons.
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2])
            if fields[0] == "0" && fields[1].isEmpty {
                limits += groupLimits(mount: join(root, "sys/fs/cgroup"), group: path, file: "memory.max")
            } else if fields[1].split(separator: ",").contains("memory") {
                limits += groupLimits(mount: join(root, "sys/fs/cgroup/memory"), group: path, file: "memory.limit_in_bytes")
            }
        }
        return limits.min { $0.bytes < $1.bytes }
    }

    /// The limits set in `file` of `group` and each of its ancestors under `mount`; "max" (v2)
    /// and v1's near-2^63 "no limit" are none.
    static func groupLimits(mount: String, group: String, file: String) -> [MemoryAllowance] {
        var limits: [MemoryAllowance] = []
        var components = group.split(separator: "/").map(String.init)
        while true {
            let groupPath = "/" + components.joined(separator: "/")
            let path = join(mount, components.joined(separator: "/") + "/" + file)
            if let text = contents(path), let bytes = Int(text.split(separator: "\n").first ?? ""), bytes < 1 << 60 {
                limits.append(MemoryAllowance(bytes: bytes, source: "the memory limit of cgroup \(groupPath), \(path)"))
            }
            guard !components.isEmpty else { return limits }
            components.removeLast()
        }
    }

    private static func contents(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private static func join(_ root: String, _ relative: String) -> String {
        (root.hasSuffix("/") ? root : root + "/") + relative.drop { $0 == "/" }
    }

    /// `bytes` in gigabytes with one decimal ("2.4 GB"), for messages.
    public static func gigabytes(_ bytes: Int) -> String {
        "\((Double(bytes) / 100_000_000).rounded() / 10) GB"
    }
}
