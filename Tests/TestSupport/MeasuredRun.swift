#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Runs a program with a deadline and reports how it ended, how long it took and its peak
/// memory: the highest `VmHWM` of its own address space, read from /proc while it runs. (Not
/// `ru_maxrss` from `wait4`: posix_spawn's child starts in the parent's address space, and exec
/// records that space's high-water mark as the child's, so a large test process inflated it.)
public struct MeasuredRun: Sendable {
    /// The exit status, when the program exited.
    public let status: Int32?
    /// The signal that ended it (a crash, or the kill after the deadline).
    public let signal: Int32?
    /// Whether it was killed for running past the deadline.
    public let timedOut: Bool
    /// Seconds from spawn to exit.
    public let seconds: Double
    /// CPU seconds the program used (user + system): what it cost, however busy the machine.
    public let cpuSeconds: Double
    /// Peak resident memory in bytes.
    public let peakBytes: Int
    /// Standard output.
    public let stdout: Data
    /// Standard error as text.
    public let stderr: String

    /// Runs `program` with `arguments`; kills it with SIGKILL at `deadline` seconds (a hang), or
    /// already at `killAfter` seconds (to interrupt it on purpose).
    public static func run(_ program: String, _ arguments: [String], deadline: Double = 20,
                           killAfter: Double? = nil) throws -> MeasuredRun {
        let folder = try TemporaryDirectory("photocap-run")
        // Its deinit removes the folder: kept until the child's output has been read.
        defer { withExtendedLifetime(folder) {} }
        let outPath = folder.path("stdout")
        let errPath = folder.path("stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let started = Date()
        let code = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL) }
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        var killed = false
        var peak = 0
        while true {
            peak = max(peak, Self.highWaterMark(of: pid))
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
            let elapsed = Date().timeIntervalSince(started)
            if !killed, let killAfter, elapsed >= killAfter { kill(pid, SIGKILL); killed = true }
            if !killed, elapsed >= deadline { kill(pid, SIGKILL); killed = true; timedOut = true }
            usleep(2_000)
        }
        let seconds = Date().timeIntervalSince(started)
        let exited = status & 0x7F == 0
        return MeasuredRun(
            status: exited ? (status >> 8) & 0xFF : nil, signal: exited ? nil : status & 0x7F, timedOut: timedOut,
            seconds: seconds,
            cpuSeconds: Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000,
            peakBytes: peak,
            stdout: (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data(),
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    /// `VmHWM` of `pid` in bytes (0 once it has exited or before it has its own address space).
    private static func highWaterMark(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1024
    }
}

extension MeasuredRun {
    /// Runs `program` under `/usr/bin/time` and gives the peak resident bytes it reports (`%M`):
    /// the program's own, counted by the kernel to the end, where polling /proc can miss a peak
    /// just before exit. Started from a shell (`sh -c`), and time forks a small process that
    /// execs the program: no large parent's size is counted (exec keeps the high-water mark of
    /// the address space it replaces, and posix_spawn's child starts in this test process's).
    /// A program still running at `deadline` seconds is killed by `timeout` (exit status 137),
    /// so none is left behind.
    public static func runTimed(_ program: String, _ arguments: [String], deadline: Int = 20) throws -> (run: MeasuredRun, peakBytes: Int) {
        let folder = try TemporaryDirectory("photocap-time")
        let report = folder.path("time")
        let script = "report=$1 limit=$2; shift 2; exec /usr/bin/time -f %M -o \"$report\" /usr/bin/timeout -s KILL \"$limit\" \"$@\""
        let run = try run("/bin/sh", ["-c", script, "sh", report, "\(deadline)", program] + arguments, deadline: Double(deadline + 10))
        // The last line: time writes "Command exited with non-zero status N" before it.
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let kilobytes = text.split(separator: "\n").last.flatMap { Int($0) } ?? Int.max / 1024
        return (run, kilobytes * 1024)
    }
}
