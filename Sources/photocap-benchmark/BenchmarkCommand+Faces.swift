import Foundation
import PhotoCaptureVision

extension BenchmarkCommand {
    /// Face detection per analysed frame (Haar and LBP, at the analysis size 320x240 and at
    /// 640x480) on the scripted people scene with three people, and photo request → photo in
    /// hand on a 30 fps 640x480 stream with the smart framing monitor running and without it.
    /// The portrait comes from `TestImages/faces/astronaut.png`, decoded by ImageMagick.
    func compareFaceDetection(rounds: Int) async throws {
        let portraitPath = "TestImages/faces/astronaut.png"
        let decode = Process()
        decode.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        decode.arguments = [portraitPath, "-depth", "8", "rgb:-"]
        let pipe = Pipe()
        decode.standardOutput = pipe
        do { try decode.run() } catch {
            print("  face detection: skipped (ImageMagick's convert is needed to read \(portraitPath))")
            return
        }
        let bytes = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
        decode.waitUntilExit()
        guard decode.terminationStatus == 0, bytes.count == 512 * 512 * 3 else {
            print("  face detection: skipped (\(portraitPath) unreadable; run from the repository)")
            return
        }
        let scene = ScriptedPeopleScene.joiningFriends(portrait: RGBImage(size: PixelSize(width: 512, height: 512), pixels: bytes),
                                                       faceInPortrait: PixelRect(x: 175, y: 70, size: PixelSize(width: 90, height: 90)))
        let full = LumaPicture(scene.image(at: 9, size: PixelSize(width: 640, height: 480)))
        let small = full.downscaled(toFit: PixelSize(width: 320, height: 240))
        let cases: [(String, CascadeFaceDetector, LumaPicture)] = [
            ("face detection, Haar alt2, 320x240 (the analysis size)", try CascadeFaceDetector(), small),
            ("face detection, Haar alt2, 640x480", try CascadeFaceDetector(), full),
            ("face detection, LBP (scale step 1.1), 320x240", try CascadeFaceDetector(model: .lbpFrontalFace, minimumNeighbours: 3, scaleFactor: 1.1), small),
        ]
        let clock = ContinuousClock()
        print("photocap benchmark: faces on the scripted people scene (3 people), one thread, \(rounds) rounds, medians")
        for (name, detector, picture) in cases {
            var samples: [Double] = []
            var found = 0
            for round in 0...rounds {
                let start = clock.now
                found = try detector.detectFaces(in: picture).count
                if round > 0 { samples.append((clock.now - start).milliseconds) }
            }
            let median = samples.median
            print("  " + name.padded(to: 62) + String(format: " %8.2f ms  %3d faces  %5.1f analyses/s", median, found, 1000 / median))
        }

        // Photo request → photo in hand, 30 fps stream, with and without the monitor analysing.
        var configuration = CaptureDevice.SyntheticConfiguration(maximumSize: PixelSize(width: 640, height: 480), framesPerSecond: 30)
        configuration.script = scene.syntheticScript
        var medians: [Double] = []
        for monitoring in [false, true] {
            let device = CaptureDevice.synthetic(configuration)
            let (session, output) = try await running(device)
            let monitor = device.smartFramingMonitor
            if monitoring {
                try monitor.setEnabledFramings(monitor.supportedFramings)
                try monitor.startMonitoring()
            }
            try await Task.sleep(for: .milliseconds(500))
            var samples: [Double] = []
            for _ in 0..<max(rounds, 5) {
                var settings = PhotoSettings(format: .jpeg)
                settings.quality = quality
                let start = clock.now
                _ = try await output.capturePhoto(with: settings)
                samples.append((clock.now - start).milliseconds)
            }
            let analysed = monitor.analysedFrameCount
            monitor.stopMonitoring()
            await session.stopRunning()
            medians.append(samples.median)
            let name = monitoring ? "photo request -> photo, 30 fps, smart framing monitor on" : "photo request -> photo, 30 fps, no monitor"
            print("  " + name.padded(to: 62) + String(format: " %8.2f ms", medians.last!) + (monitoring ? "  (\(analysed) analyses)" : ""))
        }
        print(String(format: "  photo with the monitor running vs without: %.2fx", medians[1] / medians[0]))
    }
}
