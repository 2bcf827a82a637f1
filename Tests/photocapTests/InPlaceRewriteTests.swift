#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `photocap orient --in-place` keeps what was the user's (AtomicFileWriter.replace): symlinks
/// followed, hard links refused, mode, owner, group and (with --keep-time) the modification time
/// kept, and a kill at any instant leaves the original or the complete result.
@Suite(.serialized) struct InPlaceRewriteTests {
    static func photocap(_ arguments: [String]) throws -> MeasuredRun {
        try MeasuredRun.run(TestPaths.photocap, arguments, deadline: 60)
    }

    static func status(_ path: String, following: Bool = true) -> stat {
        var result = stat()
        _ = following ? stat(path, &result) : lstat(path, &result)
        return result
    }

    /// A folder holding a turned JPEG `photo.jpg`, and the bytes `orient` makes of it.
    static func fixture(size: Int = 64) throws -> (folder: TemporaryDirectory, file: String, original: Data, upright: Data) {
        let seeds = try HostileSeeds(size: size)
        let folder = try TemporaryDirectory("photocap-inplace")
        let original = Data(try seeds.bytes("jpeg"))
        let file = folder.path("photo.jpg")
        try original.write(to: URL(fileURLWithPath: file))
        let reference = try TemporaryDirectory("photocap-inplace-reference")
        let run = try photocap(["orient", seeds.paths["jpeg"]!, "--output", reference.url.path])
        #expect(run.status == 0, "\(run.stderr)")
        let upright = try Data(contentsOf: reference.url.appendingPathComponent("seed.jpeg"))
        #expect(upright != original)
        return (folder, file, original, upright)
    }

    static func names(_ folder: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    @Test("a symlink is followed: its target is replaced and the link stays a link")
    func symlink() throws {
        let (folder, file, _, upright) = try Self.fixture()
        let links = try TemporaryDirectory("photocap-links")
        let link = links.url.appendingPathComponent("link.jpg").path
        #expect(Glibc.symlink(file, link) == 0)
        let run = try Self.photocap(["orient", "--in-place", link])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.status(link, following: false).st_mode & S_IFMT == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == file)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == upright)
        #expect(try Self.names(folder) == ["photo.jpg"])
        #expect(try Self.names(links) == ["link.jpg"])
    }

    @Test("a hard-linked file is refused with a clear message and left as it is")
    func hardLink() throws {
        let (folder, file, original, _) = try Self.fixture()
        let other = folder.path("other.jpg")
        #expect(link(file, other) == 0)
        let inode = Self.status(file).st_ino
        let run = try Self.photocap(["orient", "--in-place", file])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(file) has 2 hard links; rewriting it in place would break them"), "\(run.stderr)")
        #expect(Self.status(file).st_ino == inode && Self.status(other).st_ino == inode && Self.status(file).st_nlink == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
        #expect(try Self.names(folder) == ["other.jpg", "photo.jpg"])
    }

    @Test("the permission bits are kept", arguments: [0o640, 0o600, 0o444, 0o2755])
    func mode(_ mode: Int) throws {
        let (folder, file, _, upright) = try Self.fixture()
        #expect(chmod(file, mode_t(mode)) == 0)
        let run = try Self.photocap(["orient", "--in-place", file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Int(Self.status(file).st_mode & 0o7777) == mode)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == upright)
        #expect(try Self.names(folder) == ["photo.jpg"])
    }

    @Test("the owner and group are kept", .enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func owner() throws {
        let (folder, file, _, upright) = try Self.fixture()
        #expect(chown(file, 1234, 5678) == 0)
        let run = try Self.photocap(["orient", "--in-place", file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.status(file).st_uid == 1234 && Self.status(file).st_gid == 5678)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == upright)
        #expect(try Self.names(folder) == ["photo.jpg"])
    }

    /// Every extended attribute of a file as getfattr dumps it (hex values), and its ACL as
    /// getfacl prints it: what a rewrite must leave as it was.
    static func identity(_ file: String) throws -> (attributes: String, acl: String) {
        let attributes = try ExternalTool.run("getfattr", ["--absolute-names", "-d", "-m", "-", "-e", "hex", file]).checked().text
        let acl = try ExternalTool.run("getfacl", ["--absolute-names", file]).checked().text
        return (attributes, acl)
    }

    @Test("extended attributes and the POSIX ACL are kept, and the group's access is not widened")
    func extendedAttributesAndACL() throws {
        let (folder, file, _, upright) = try Self.fixture()
        #expect(chmod(file, 0o640) == 0)
        try ExternalTool.run("setfattr", ["-n", "user.comment", "-v", "holiday", file]).checked()
        try ExternalTool.run("setfattr", ["-n", "user.binary", "-v", "0x00ff7f01", file]).checked()
        try ExternalTool.run("setfacl", ["-m", "user:nobody:rw", file]).checked()
        let before = try Self.identity(file)
        #expect(before.acl.contains("user:nobody:rw-") && before.acl.contains("group::r--"), "\(before.acl)")
        #expect(before.attributes.contains("user.comment") && before.attributes.contains("system.posix_acl_access"))

        let run = try Self.photocap(["orient", "--in-place", file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == upright)
        let after = try Self.identity(file)
        #expect(after.attributes == before.attributes)
        #expect(after.acl == before.acl)
        #expect(Self.status(file).st_mode & 0o7777 == 0o660, "the group bits are the ACL's mask, rw")
        #expect(try Self.names(folder) == ["photo.jpg"])
    }

    @Test("a file without an ACL gets none from its folder's default ACL")
    func noInheritedACL() throws {
        let (folder, file, _, upright) = try Self.fixture()
        #expect(chmod(file, 0o600) == 0)
        try ExternalTool.run("setfacl", ["-d", "-m", "user:nobody:rwx", folder.url.path]).checked()
        let before = try Self.identity(file)
        #expect(!before.attributes.contains("system.posix_acl_access"), "\(before.attributes)")

        let run = try Self.photocap(["orient", "--in-place", file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == upright)
        #expect(try Self.identity(file).attributes == before.attributes)
        #expect(Self.status(file).st_mode & 0o7777 == 0o600)
    }

    @Test("--keep-time keeps the modification time; without it the file is dated now")
    func modificationTime() throws {
        for keep in [true, false] {
            let (folder, file, _, upright) = try Self.fixture()
            // 2001-09-09 01:46:40.123456789 UTC
            let times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 123_456_789), timespec(tv_sec: 1_000_000_000, tv_nsec: 123_456_789)]
            #expect(utimensat(AT_FDCWD, file, times, 0) == 0)
            let run = try Self.photocap(["orient", "--in-place", file] + (keep ? ["--keep-time"] : []))
            #expect(run.status == 0, "\(run.stderr)")
            let modified = Self.status(file).st_mtim
            if keep {
                #expect(modified.tv_sec == 1_000_000_000 && modified.tv_nsec == 123_456_789)
            } else {
                #expect(abs(Int(modified.tv_sec) - Int(time(nil))) < 120)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == upright)
            #expect(try Self.names(folder) == ["photo.jpg"])
        }
        let refused = try Self.photocap(["orient", "/dev/null", "--output", "/tmp", "--keep-time"])
        #expect(refused.status != 0 && refused.stderr.contains("--keep-time applies to --in-place"), "\(refused.stderr)")
    }

    @Test("the hidden result of a rewrite killed between its link and its rename is removed by the next rewrite in the folder")
    func leftoverOfAKilledRewriteIsRemoved() throws {
        let (folder, file, _, upright) = try Self.fixture()
        // A process that has ended: its PID runs nothing now.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = ended.processIdentifier
        // What a SIGKILL between linkat and rename leaves, and two names that are no such leftover:
        // one of a process that runs (this one), one beside no file of its name.
        let leftover = ".photo.jpg.\(dead).0", running = ".photo.jpg.\(getpid()).1", unrelated = ".other.jpg.\(dead).0"
        for name in [leftover, running, unrelated] { try upright.write(to: folder.url.appendingPathComponent(name)) }
        let run = try Self.photocap(["orient", "--in-place", file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == upright)
        #expect(try Self.names(folder) == [unrelated, running, "photo.jpg"].sorted())
    }

    @Test("killed at any instant, the rewrite leaves the original or the complete result and no other file")
    func interrupted() throws {
        let size = 1024
        let (folder, file, original, upright) = try Self.fixture(size: size)
        let full = try Self.photocap(["orient", "--in-place", file])
        #expect(full.status == 0, "\(full.stderr)")
        var outcomes = (original: 0, result: 0)
        // Kill instants spread over the whole run, from before the read to well after the rename
        // (up to four times an undisturbed run, as timing varies on a busy machine).
        for (step, fraction) in ((0..<15).map { Double($0) / 7 } + [3, 4]).enumerated() {
            try original.write(to: URL(fileURLWithPath: file))
            let run = try MeasuredRun.run(TestPaths.photocap, ["orient", "--in-place", file], deadline: 60,
                                          killAfter: full.seconds * fraction)
            let now = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(now == original || now == upright, "kill at step \(step): \(now.count) bytes, neither original nor result")
            if now == original { outcomes.original += 1 } else if now == upright { outcomes.result += 1 }
            // A kill between the link and the rename of the commit (two system calls) leaves the
            // complete result under the killed process's hidden name, which the next run
            // removes (see leftoverOfAKilledRewriteIsRemoved); nothing else may be there.
            let names = try Self.names(folder), extra = names.filter { $0 != "photo.jpg" }
            #expect(names.contains("photo.jpg") && extra.count <= 1,
                    "kill at step \(step) (signal \(run.signal.map(String.init) ?? "none")): \(extra)")
            for name in extra {
                #expect(name.wholeMatch(of: /\.photo\.jpg\.[0-9]+\.[0-9]+/) != nil, "kill at step \(step) left \(name)")
                #expect(try Data(contentsOf: folder.url.appendingPathComponent(name)) == upright, "kill at step \(step): \(name) is not the result")
            }
        }
        #expect(outcomes.original > 0 && outcomes.result > 0, "no kill landed on both sides: \(outcomes)")
        try original.write(to: URL(fileURLWithPath: file))
        #expect(try Self.photocap(["orient", "--in-place", file]).status == 0)
        #expect(try Self.names(folder) == ["photo.jpg"])
    }
}
