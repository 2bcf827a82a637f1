import Foundation
import PhotoCapture

extension BenchmarkCommand {
    /// A bracket of three (−2, 0, +2 EV) against the same three members taken one after another
    /// (each a one-member bracket that waits for its photo before the next starts), and one
    /// plain photo for scale; until the photos are delivered, then again with each file written.
    /// Round-robin on one synthetic camera (the camera with exposure controls; its scene is flat
    /// colours, so the encode is cheaper than on a textured frame) whose frames come as fast as
    /// they are asked for: the photos' work alone. Then the bracket and its members one after
    /// another again, at a camera's pace.
    ///
    /// Returns the ratios of the bracket to its members one after another: the photos' work
    /// alone, and at a camera's pace.
    func compareBracket(in folder: URL) async throws -> (workAlone: Double, cameraPace: Double) {
        let (session, output) = try await running(.synthetic(.init(maximumSize: size, framesPerSecond: 100_000)))
        defer { Task { await session.stopRunning() } }

        let members = [-2.0, 0, 2].map { BracketedStillImageSettings.autoExposure(exposureTargetBias: $0) }
        func settings(_ members: [BracketedStillImageSettings]) -> PhotoSettings {
            var settings = PhotoSettings(bracketedSettings: members)
            settings.quality = quality
            settings.framePixelFormat = .yuyv
            settings.embeddedThumbnailDimensions = PixelSize(width: 160, height: 120)
            return settings
        }
        /// Captures until every photo is delivered, encoded; with `name`, each is also written
        /// (atomically, with fsync) before the next is taken.
        func capture(_ members: [BracketedStillImageSettings], name: String?, on output: PhotoOutput) async throws {
            for try await photo in try output.capturePhotos(with: settings(members)) {
                guard let name else { continue }
                let path = folder.appendingPathComponent("\(name)-\(members.count > 1 ? photo.sequenceCount : 0).jpg").path
                try photo.write(to: path, overwrite: true)
            }
        }
        func oneAfterAnother(_ name: String?, on output: PhotoOutput) async throws {
            for (index, member) in members.enumerated() {
                try await capture([member], name: name.map { "\($0)-\(index)" }, on: output)
            }
        }
        let cases: [(String, () async throws -> Void)] = [
            ("bracket of 3 (-2, 0, +2 EV), members encoded in parallel", { try await capture(members, name: nil, on: output) }),
            ("the same 3 members one after another", { try await oneAfterAnother(nil, on: output) }),
            ("one plain photo", { try await capture([], name: nil, on: output) }),
            ("bracket of 3, each file written (fsync) as delivered", { try await capture(members, name: "bracket", on: output) }),
            ("3 members one after another, each file written", { try await oneAfterAnother("member", on: output) }),
        ]
        let (medians, processorMedians) = try await Self.medians(of: cases.map(\.1), rounds: bracketRounds)
        print("bracket: \(size) YUYV, JPEG q\(quality) + 160x120 thumbnail, \(bracketRounds) rounds, medians, "
              + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
        for (index, item) in cases.enumerated() {
            print("  " + item.0.padded(to: 62) + String(format: " %8.2f ms  (processor %6.2f ms)", medians[index], processorMedians[index]))
        }
        print(String(format: "  bracket vs members one after another: %.2fx (target <= 0.65x); vs 3 plain photos: %.2fx; "
                     + "with the files written: %.2fx", medians[0] / medians[1], medians[0] / (3 * medians[2]),
                     medians[3] / medians[4]))
        // Both cores busy for the whole bracket is as fast as it can go; each photo already
        // encodes in strips on every core, so members in parallel only fill the gaps.
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        print(String(format: "  bracket's floor, its processor time over %.0f cores: %.2f ms, %.2fx of the members one after another; "
                     + "processor per member %.2f ms, per plain photo %.2f ms", cores, processorMedians[0] / cores,
                     processorMedians[0] / cores / medians[1], processorMedians[0] / 3, processorMedians[2]))

        // At a camera's pace: 30 frames a second and each exposure seen two frames after it is
        // set (the synthetic camera's control delay). Waiting for frames is then most of the
        // time: the bracket's members are consecutive frames (its controls are set per frame),
        // while each member alone waits for its change and for the restore to reach a frame.
        await session.stopRunning()  // its frames, asked for without pause, would take a core
        let (pacedSession, pacedOutput) = try await running(.synthetic(.init(maximumSize: size, framesPerSecond: 30)))
        defer { Task { await pacedSession.stopRunning() } }
        let paced: [() async throws -> Void] = [
            { try await capture(members, name: nil, on: pacedOutput) }, { try await oneAfterAnother(nil, on: pacedOutput) },
        ]
        let pacedRounds = max(1, bracketRounds / 2)
        let pacedMedians = try await Self.medians(of: paced, rounds: pacedRounds).wall
        print(String(format: "  at a camera's pace (30 fps, exposure seen 2 frames after it is set), %d rounds: bracket %.0f ms, "
                     + "members one after another %.0f ms: %.2fx", pacedRounds, pacedMedians[0], pacedMedians[1],
                     pacedMedians[0] / pacedMedians[1]))
        return (medians[0] / medians[1], pacedMedians[0] / pacedMedians[1])
    }

    /// Runs `cases` round-robin, `rounds` times after an untimed round 0 (which renders the
    /// exposures and warms the encoders): each case's median wall time and processor time (ms).
    static func medians(of cases: [() async throws -> Void], rounds: Int) async throws -> (wall: [Double], processor: [Double]) {
        var wall = [[Double]](repeating: [], count: cases.count), processor = wall
        for round in 0...rounds {
            for (index, run) in cases.enumerated() {
                let (start, startCPU) = (ContinuousClock.now, processorTime())
                try await run()
                let elapsed = ContinuousClock.now - start
                if round > 0 {
                    wall[index].append(elapsed.milliseconds)
                    processor[index].append(processorTime() - startCPU)
                }
            }
        }
        return (wall.map(\.median), processor.map(\.median))
    }

    /// This process's user and system time so far, in milliseconds.
    static func processorTime() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
        return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
    }
}
