import FoundationEssentials
import PhotoCapture
#if canImport(Glibc)
import Glibc
#endif

/// Where one photo stands in a timelapse, for `--json`.
struct TimelapseReport: Encodable {
    /// 1-based number of the photo.
    let index: Int
    /// The slot on the schedule (0-based): `index - 1` unless slots were missed.
    let slot: Int
    /// When the slot was due, from the start of the timelapse.
    let scheduledMs: Double
    /// How late the request was made after its slot was due.
    let jitterMs: Double
}

extension ShootCommand {
    /// `--interval`: photos due at start + k × interval on one running session, so lateness never
    /// accumulates (a photo that takes longer than the interval makes the next slots be missed
    /// and counted, not the schedule slide). Each file is named with its number and the time it
    /// was taken; `--latest` points at the newest. A camera that disappears is waited for (found
    /// again by its bus info) for `--reconnect-timeout`, and the gap is reported.
    func shootTimelapse() async throws(PhotoCaptureError) {
        guard let interval = timelapse.interval?.duration else { return }
        let xmp = try metadata.xmpPacket()
        let first = makeSettings(xmp: xmp)
        var (camera, session, output, rawFormat) = try await prepareSession(firstRequest: first.uniqueID)
        let coordinator = await rotationCoordinator(for: camera)
        let clock = ContinuousClock()
        let total = countOption ?? Int.max
        var jitters: [Double] = []
        var missed = 0
        var gaps: [(slot: Int, seconds: Double)] = []
        var current = first.uniqueID
        var interruptHandler = makeInterruptHandler(on: camera)
        defer { interruptHandler?.cancel() }
        do throws(PhotoCaptureError) {
            try await session.startRunning(discardingFirst: cameraOptions.skip)
            // The stream switched to the photos' format before the first slot, so every photo,
            // the first too, is the frame under way when its slot comes (zero shutter lag).
            try await output.setPreparedPhotoSettingsArray([first])
            // The schedule starts with the stream, so the first photo is on time too.
            let start = clock.now
            let end = timelapse.duration.map { start + $0.duration }
            var slot = 0
            var taken = 0
            while taken < total {
                let due = start + interval * slot
                if let end, due >= end { break }
                try? await clock.sleep(until: due)
                let now = clock.now
                var settings = taken == 0 ? first : makeSettings(xmp: xmp)
                if let rawFormat { settings.rawPixelFormat = rawFormat }
                applyRotation(from: coordinator, to: &settings)
                current = settings.uniqueID
                let report = TimelapseReport(index: taken + 1, slot: slot, scheduledMs: (due - start).milliseconds,
                                             jitterMs: (now - due).milliseconds)
                do throws(PhotoCaptureError) {
                    let written = try await captureTimelapsePhoto(settings, number: taken + 1, output: output,
                                                                  camera: camera, report: report)
                    jitters.append(report.jitterMs)
                    taken += 1
                    if let latest = timelapse.latest, let photo = written.first { try pointLatest(latest, at: photo) }
                } catch {
                    guard case .deviceDisconnected = error.code, camera.kind == .v4l2 else { throw error }
                    // Unplugged: wait for it to come back, then carry on from the next due slot.
                    let seconds = try await resumeAfterUnplug(camera: &camera, session: &session, output: &output,
                                                              interruptHandler: &interruptHandler, preparing: settings)
                    gaps.append((slot, seconds))
                }
                let next = Self.nextSlot(after: slot, elapsed: clock.now - start, interval: interval)
                missed += next - slot - 1
                slot = next
            }
            await session.stopRunning()
        } catch {
            await session.stopRunning()
            throw error.attributed(to: current)
        }
        noteSummary(jitters: jitters, missed: missed, gaps: gaps)
    }

    /// Interrupted mid-bracket or while focusing, the camera's controls go back before the
    /// process exits, as for a single shot; nil when the timelapse changes neither.
    private func makeInterruptHandler(on camera: CaptureDevice) -> ControlInterruptHandler? {
        bracket.members.isEmpty && focus.mode == nil
            ? nil : ControlInterruptHandler(camera: camera, bracket: !bracket.members.isEmpty, focus: focus.mode != nil, changes: nil)
    }

    /// After `camera` was unplugged: waits for it to return, then starts the stream again with
    /// `settings` prepared, so the timelapse carries on as before; returns the seconds it was
    /// away. Apart from the schedule's loop, which only decides that the error is an unplug.
    private func resumeAfterUnplug(camera: inout CaptureDevice, session: inout CaptureSession, output: inout PhotoOutput,
                                   interruptHandler: inout ControlInterruptHandler?,
                                   preparing settings: PhotoSettings) async throws(PhotoCaptureError) -> Double {
        let lost = ContinuousClock.now
        await session.stopRunning()
        try await awaitReturn(of: &camera, session: &session, output: &output, firstRequest: settings.uniqueID)
        // The returned camera is another device: its controls are the ones to restore.
        interruptHandler?.cancel()
        interruptHandler = makeInterruptHandler(on: camera)
        try await session.startRunning(discardingFirst: cameraOptions.skip)
        try await output.setPreparedPhotoSettingsArray([settings])
        let seconds = (ContinuousClock.now - lost).seconds
        note("\(camera.uniqueID) is back after \(String(printf: "%.1f", seconds)) s")
        return seconds
    }

    /// The next slot still ahead once `elapsed` has passed since the start: the ones that passed
    /// are missed, not made up, so lateness never accumulates.
    private static func nextSlot(after slot: Int, elapsed: Duration, interval: Duration) -> Int {
        max(slot + 1, Int((elapsed / interval).rounded(.up)))
    }

    /// The timelapse's line on standard error: photos, jitter, missed slots and the camera's gaps.
    private func noteSummary(jitters: [Double], missed: Int, gaps: [(slot: Int, seconds: Double)]) {
        let sorted = jitters.sorted()
        let gapText = gaps.isEmpty ? "no gaps" : gaps.map { "camera away for \(String(printf: "%.1f", $0.seconds)) s at slot \($0.slot)" }
            .joined(separator: ", ")
        note("timelapse: \(jitters.count) photos every \(timelapse.interval!), jitter median \(String(printf: "%.1f", sorted.isEmpty ? 0 : sorted[sorted.count / 2])) ms, "
             + "max \(String(printf: "%.1f", sorted.last ?? 0)) ms, \(missed) slots missed, \(gapText)")
    }

    /// Waits for the unplugged `camera` to come back, found again by its bus info, for
    /// `--reconnect-timeout`; the vanished device, its session and output are let go of (its
    /// descriptor closes) while waiting; then they are the camera found, a session and an output.
    private func awaitReturn(of camera: inout CaptureDevice, session: inout CaptureSession, output: inout PhotoOutput,
                             firstRequest: Int64) async throws(PhotoCaptureError) {
        let (name, busInfo) = (camera.uniqueID, camera.v4l2Details?.busInfo)
        note("\(name) disconnected; waiting up to \(timelapse.reconnectTimeout) for it to return")
        (camera, session, output) = try await reconnect(to: name, busInfo: busInfo, firstRequest: firstRequest) {
            (camera, session, output) = (CaptureDevice.synthetic(), CaptureSession(), PhotoOutput())
        }
    }

    /// One photo of the timelapse, named with its number and the time it is taken.
    private func captureTimelapsePhoto(_ settings: PhotoSettings, number: Int, output: PhotoOutput, camera: CaptureDevice,
                                       report: TimelapseReport) async throws(PhotoCaptureError) -> [String] {
        let resolved = try output.resolvedSettings(for: settings)
        let paths = settings.bracketedSettings.isEmpty
            ? [try OutputPaths(output: output, requested: outputPath, format: resolved.format, withPreview: preview != nil,
                               withRaw: rawPlus != nil, overwrite: overwrite, index: number, count: countOption ?? 9999,
                               date: Date())]
            : try memberPaths(count: resolved.bracketedSettings.count, index: number, total: countOption ?? 9999,
                              output: output, format: resolved.format, date: Date())
        return try await capture(settings, to: paths, with: output, device: camera, timelapse: report)
    }

    /// The camera with `camera`'s bus info once it is back (a V4L2 node may get another number),
    /// in a new session set up as before; polls once a second for `--reconnect-timeout`.
    private func reconnect(to name: String, busInfo: String?, firstRequest: Int64,
                           releasing release: () -> Void) async throws(PhotoCaptureError) -> (CaptureDevice, CaptureSession, PhotoOutput) {
        release()
        let deadline = ContinuousClock.now + timelapse.reconnectTimeout.duration
        while ContinuousClock.now < deadline {
            try? await Task.sleep(for: .seconds(1))
            let found = CaptureDevice.discovery().devices.first { candidate in
                candidate.kind == .v4l2 && (busInfo.map { candidate.v4l2Details?.busInfo == $0 } ?? (candidate.uniqueID == name))
            }
            guard let found else { continue }
            let device = cameraOptions.mountingOverride.map(found.overridingSensorMounting) ?? found
            let session = CaptureSession()
            let output = PhotoOutput()
            output.maxPhotoQualityPrioritization = max(qualityPrioritization, .balanced)
            try session.addInput(device)
            try session.addOutput(output)
            try await applyFraming(to: device)
            output.orientationCompensation = encoding.compensation.orientationCompensation
            output.frameTimeout = cameraOptions.frameTimeoutDuration
            return (device, session, output)
        }
        throw PhotoCaptureError(.deviceDisconnected(device: name), uniqueID: firstRequest)
    }

    /// Points the symbolic link `link` at `target`: a new link beside it renamed over it, so a
    /// reader never finds it missing.
    private func pointLatest(_ link: String, at target: String) throws(PhotoCaptureError) {
        let folder = link.deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.\(link.lastPathComponent).\(getpid()).tmp"
        // Relative when the photo is in the link's folder, so the pair can be moved together.
        func absolute(_ path: String) -> String { URL(fileURLWithPath: path.isEmpty ? "." : path).standardizedFileURL.path }
        let destination = absolute(target.deletingLastPathComponent) == absolute(folder)
            ? target.lastPathComponent : target
        unlink(temporary)
        guard symlink(destination, temporary) == 0 else {
            throw PhotoCaptureError(.file(ImageFileError(.writeFailed(path: link, call: "symlink", errno: Errno(errno)))))
        }
        guard rename(temporary, link) == 0 else {
            let error = ImageFileError(.writeFailed(path: link, call: "rename", errno: Errno(errno)))
            unlink(temporary)
            throw PhotoCaptureError(.file(error))
        }
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
