import Foundation
import PhotoCapture

extension BenchmarkCommand {
    /// The prioritization rows: `.balanced` and `.quality` against `.speed`, whole 12 MP JPEG
    /// photos through ``PhotoOutput``, on a dim hand-held clip (a quarter of the photo's light,
    /// luma σ 6) played by the clip camera at 10 fps: what merging adds to the photo's
    /// processing (conversion, merge, encode), the request-to-photo time (`.quality` also waits
    /// for two frames after its own), and the luma PSNR gained against the clean picture.
    func compareQualityPrioritization(rounds: Int, in folder: URL) async throws {
        guard let clip = try BenchmarkClip(command: self, shifts: 7, brightness: 0.25, lumaNoise: 6, chromaNoise: 4) else { return }
        let path = folder.appendingPathComponent("handheld.y4m")
        try clip.y4m(framesPerSecond: 10).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let device = try CaptureDevice.clip(path: path.path, loops: true)
        let session = CaptureSession(), output = PhotoOutput()
        output.maxPhotoQualityPrioritization = .quality
        try session.addInput(device)
        try session.addOutput(output)
        try await session.startRunning()
        defer { Task { await session.stopRunning() } }
        // The scene judged dark (so .balanced merges) and frames before the request in hand.
        let deadline = ContinuousClock.now + .seconds(10)
        while !device.sceneMonitor.isFlashScene, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .seconds(1))

        let levels = PhotoQualityPrioritization.allCases
        var processing: [PhotoQualityPrioritization: [Double]] = [:], wall = processing
        var psnr: [PhotoQualityPrioritization: Double] = [:], merged: [PhotoQualityPrioritization: Int] = [:]
        let clock = ContinuousClock()
        for round in 0...rounds {
            for level in levels {
                var settings = PhotoSettings(format: .jpeg)
                settings.quality = quality
                settings.photoQualityPrioritization = level
                let start = clock.now
                let photo = try await output.capturePhoto(with: settings)
                let elapsed = (clock.now - start).milliseconds
                if round == 0 {
                    // Judged once, outside the timing: the planes the JPEG was encoded from.
                    psnr[level] = clip.bestPSNR(photo.pixelBuffer.image)
                    merged[level] = photo.resolvedSettings.frameMerging.framesMerged
                    continue
                }
                let timings = photo.timings
                processing[level, default: []].append((timings.conversion + timings.scaling + timings.encoding) * 1000)
                wall[level, default: []].append(elapsed)
            }
        }
        print("photocap benchmark: quality prioritization, 12 MP JPEG photos of a dim hand-held clip (10 fps, luma σ 6), "
              + "\(rounds) rounds, medians")
        let (speedProcessing, speedWall, speedPSNR) = (processing[.speed]!.median, wall[.speed]!.median, psnr[.speed]!)
        for level in levels {
            let name = "photo at .\(level), \(merged[level]!) frame(s)"
            let figures = level == .speed
                ? String(format: " %8.2f ms processing, %8.2f ms request to photo, %.2f dB luma PSNR",
                         speedProcessing, speedWall, speedPSNR)
                : String(format: " %+8.2f ms processing, %+8.2f ms request to photo, %+5.2f dB luma PSNR",
                         processing[level]!.median - speedProcessing, wall[level]!.median - speedWall, psnr[level]! - speedPSNR)
            print("  " + name.padded(to: 62) + figures)
        }
    }
}
