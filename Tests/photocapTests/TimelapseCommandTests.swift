import Foundation
import Testing
import TestSupport

/// `photocap shoot --interval` on the synthetic camera, judged by the camera's own clock (frame
/// sequence numbers) and by exiftool's reading of each photo's capture time.
@Suite struct TimelapseCommandTests {
    static func photocap(_ arguments: [String]) throws -> ExternalTool.Output {
        try ExternalTool.run(TestPaths.photocap, arguments)
    }

    /// Timed: `.ci/test` runs it on its own, on a quiet machine (PHOTOCAP_TIMING_TESTS=1).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PHOTOCAP_TIMING_TESTS"] == "1",
                   "timed on a quiet machine: PHOTOCAP_TIMING_TESTS=1"))
    func photosFollowTheScheduleWithoutDrift() throws {
        let folder = try TemporaryDirectory("timelapse")
        let latest = folder.path("latest.jpg")
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--size", "320x240", "--interval", "300ms",
                                     "--count", "8", "--latest", latest, "--json", "--output", folder.url.path + "/"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try run.text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(rows.count == 8)
        let paths = rows.compactMap { $0["path"] as? String }
        let names = paths.map { ($0 as NSString).lastPathComponent }
        // Counter and time in every name, in order.
        #expect(names == names.sorted() && names.enumerated().allSatisfy { $0.element.contains(String(format: "-%03d.jpg", $0.offset + 1)) },
                "\(names)")
        // The synthetic camera runs at 30 fps: 300 ms is 9 frames, whatever the scheduler did.
        let sequences = rows.compactMap { ($0["frameSequence"] as? NSNumber)?.intValue }
        let steps = zip(sequences.dropFirst(), sequences).map { $0 - $1 }
        #expect(steps.allSatisfy { (7...11).contains($0) }, "frame steps \(steps)")
        // No drift: eight photos span seven intervals (63 frames) within one frame either way.
        #expect(abs((sequences.last! - sequences.first!) - 63) <= 2, "span \(sequences.last! - sequences.first!) frames")
        // exiftool's capture times (DateTimeOriginal with SubSecTimeOriginal) agree: 0.3 s apart
        // within 60 ms, 2.1 s from first to last within 60 ms.
        let times = try paths.map { path -> Double in
            let fields = try ExternalTool.run("exiftool", ["-s3", "-DateTimeOriginal", "-SubSecTimeOriginal", path]).text
                .split(separator: "\n").map(String.init)
            let clock = fields[0].split(separator: " ")[1].split(separator: ":").compactMap { Double($0) }
            return clock[0] * 3600 + clock[1] * 60 + clock[2] + (Double("0." + fields[1]) ?? .nan)
        }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.allSatisfy { abs($0 - 0.3) <= 0.06 }, "capture times \(gaps) s apart")
        #expect(abs(times.last! - times.first! - 2.1) <= 0.06, "span \(times.last! - times.first!) s")
        // The schedule report: slots in order, jitter small.
        let slots = rows.compactMap { ($0["timelapse"] as? [String: Any])?["slot"] as? Int }
        #expect(slots == Array(0..<8))
        #expect(run.stderr.contains("timelapse: 8 photos every 300ms, jitter median"), "\(run.stderr)")
        // --latest points at the newest photo, by a relative link beside it.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: latest) == names.last)
    }

    @Test func aTimelapseStopsAfterItsDuration() throws {
        let folder = try TemporaryDirectory("timelapse-duration")
        let run = try Self.photocap(["shoot", "--device", "synthetic", "--size", "320x240", "--interval", "250ms",
                                     "--duration", "1s", "--output", folder.url.path + "/"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count == 4)
    }

    /// SIGINT mid-timelapse puts the controls its photos change back before the process exits
    /// (130), as it does for a single shot: focus for `--focus`, exposure for `--bracket`.
    @Test(arguments: [
        (["--focus", "manual:600"], "interrupted: synthetic's focus controls restored"),
        (["--bracket", "-1,0,1"], "interrupted: synthetic's exposure controls restored"),
    ])
    func sigintMidTimelapseRestoresTheControlsAndExits130(options: [String], restored: String) throws {
        let folder = try TemporaryDirectory("timelapse-sigint")
        // 1000 photos 200 ms apart: the timelapse would run for 200 s.
        let run = try InterruptedRun(["shoot", "--device", "synthetic", "--size", "320x240", "--interval", "200ms",
                                      "--count", "1000", "--output", folder.url.path + "/"] + options, interruptingAfter: 3)
        #expect(run.secondsToExit < 6)
        #expect(run.exited)
        #expect(run.status == 130)
        #expect(run.stderr.contains(restored), "\(run.stderr)")
        // It was mid-timelapse: photos were taken, every one complete.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!names.isEmpty && names.allSatisfy { $0.hasSuffix(".jpg") }, "\(names)")
    }

    @Test(arguments: [
        (["--interval", "1s"], "--interval needs --count N or --duration"),
        (["--interval", "2s", "--duration", "1s"], "--duration 1.0s is shorter than --interval 2.0s"),
        (["--latest", "x.jpg"], "--duration and --latest go with --interval"),
        (["--interval", "10", "--count", "2"], "--interval"),
    ])
    func badCombinationsAreRefused(arguments: [String], message: String) throws {
        let run = try Self.photocap(["shoot", "--device", "synthetic"] + arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
