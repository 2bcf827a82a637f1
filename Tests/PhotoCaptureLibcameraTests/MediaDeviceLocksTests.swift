import Foundation
import Glibc
@testable import PhotoCaptureLibcamera
import Testing

/// A libcamera camera another process holds is not listed here at all (its pipeline's links are
/// in use); the media device's lock, which libcamera takes with lockf, is what tells a busy
/// camera from a missing one. (The real case, `cam` streaming vimc, is in the vimc VM.)
@Suite struct MediaDeviceLocksTests {
    @Test func aMediaDeviceLockedByAnotherProcessIsSeenAndOurOwnIsNot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photocap-media-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let node = folder.appendingPathComponent("media0")
        try Data().write(to: node)
        try Data().write(to: folder.appendingPathComponent("video0"))
        #expect(!MediaDeviceLocks.heldByAnotherProcess(in: folder.path))

        // Another process takes libcamera's lock (lockf, a POSIX record lock) and holds it.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // One write(2) of the line: print() may write "held" and "\n" apart, and the read below
        // then sees half of it.
        holder.arguments = ["-c", "import fcntl, os, sys, time\nf = open(sys.argv[1], 'r+')\nfcntl.lockf(f, fcntl.LOCK_EX)\nos.write(1, b'held\\n')\ntime.sleep(30)", node.path]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        // SIGKILL: the child may inherit a mask that blocks SIGTERM.
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL); holder.waitUntilExit() } }
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self) == "held\n")
        #expect(MediaDeviceLocks.heldByAnotherProcess(in: folder.path))

        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(!MediaDeviceLocks.heldByAnotherProcess(in: folder.path))

        // This process's own lock is not another's.
        let descriptor = open(node.path, O_RDWR)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(lockf(descriptor, F_TLOCK, 0) == 0)
        #expect(!MediaDeviceLocks.heldByAnotherProcess(in: folder.path))
    }
}
