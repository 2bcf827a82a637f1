import Codecs
import Foundation
import Imaging
import PhotoCaptureVision

extension BenchmarkCommand {
    /// Face detection per analysed frame (YuNet, Haar and LBP, at the analysis size 320x240 and
    /// at 640x480) on the scripted people scene with three people; the faces YuNet and Haar find
    /// in the photos marked by hand (`TestImages/faces/marked-faces.txt`); and photo request →
    /// photo in hand on a 30 fps 640x480 stream with the smart framing monitor running and
    /// without it. The portrait comes from `TestImages/faces/astronaut.png`, decoded by ImageMagick.
    func compareFaceDetection(rounds: Int) async throws {
        let portraitPath = "TestImages/faces/astronaut.png"
        guard let bytes = imageMagickRGB(portraitPath, byteCount: 512 * 512 * 3, row: "face detection") else { return }
        let scene = ScriptedPeopleScene.joiningFriends(portrait: RGBImage(size: PixelSize(width: 512, height: 512), pixels: bytes),
                                                       faceInPortrait: PixelRect(x: 175, y: 70, size: PixelSize(width: 90, height: 90)))
        let full = LumaPicture(scene.image(at: 9, size: PixelSize(width: 640, height: 480)))
        let small = full.downscaled(toFit: PixelSize(width: 320, height: 240))
        let cases: [(String, any FaceDetecting, LumaPicture)] = [
            ("face detection, YuNet, 320x240 (the analysis size)", try YuNetFaceDetector(), small),
            ("face detection, YuNet, 640x480", try YuNetFaceDetector(), full),
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

    /// The faces YuNet and the Haar cascade find in the photos marked by hand, against the marks:
    /// found of marked and false faces, over every photo of the list, and analyses a second on
    /// one thread with the photos shrunk to fit 320x240 (the analysis size; median of `rounds`).
    /// Haar is also given the photos with each pixel doubled: their smallest faces are below its
    /// 20-pixel window.
    func compareFaceDetectionOnMarkedPhotos(rounds: Int) throws {
        let folder = "TestImages/faces"
        guard let list = try? String(contentsOfFile: folder + "/marked-faces.txt", encoding: .utf8) else {
            print("  marked photos: skipped (\(folder)/marked-faces.txt unreadable; run from the repository)")
            return
        }
        let photos = try MarkedFaces.parse(list)
        var pictures: [(marked: MarkedFaces, picture: LumaPicture)] = []
        for marked in photos {
            let data = try InputFile.read(folder + "/" + marked.file)
            let image: RGBImage
            if data.starts(with: [0xFF, 0xD8]) {
                let decoded = try JPEGDecoder().decodeRGB(data)
                image = RGBImage(size: decoded.size, pixels: decoded.rgb)
            } else {
                image = try PNGFile.read(data)
            }
            pictures.append((marked, LumaPicture(image)))
        }
        let total = photos.reduce(0) { $0 + $1.boxes.count }
        print("photocap benchmark: faces in \(photos.count) photos marked by hand (\(total) faces): found / marked, false faces; "
              + "analyses/s at 320x240, one thread")
        let cases: [(String, any FaceDetecting, Int)] = [
            ("YuNet (the default; confidence 0.6), photos as they are", try YuNetFaceDetector(), 1),
            ("Haar alt2, photos as they are", try CascadeFaceDetector(), 1),
            ("Haar alt2, photos doubled (each pixel 2x2)", try CascadeFaceDetector(), 2),
        ]
        for (name, detector, scale) in cases {
            var (found, extra) = (0, 0)
            for (marked, picture) in pictures {
                let faces = try detector.detectFaces(in: scale == 1 ? picture : picture.pixelsDoubled()).map(\.bounds)
                let result = marked.compare(faces, photoSize: picture.size)
                found += marked.boxes.count - result.missed.count
                extra += result.extra.count
            }
            let clock = ContinuousClock()
            var samples: [Double] = []
            for (_, picture) in pictures {
                let small = picture.downscaled(toFit: PixelSize(width: 320, height: 240))
                for _ in 0..<rounds {
                    let start = clock.now
                    _ = try detector.detectFaces(in: small)
                    samples.append((clock.now - start).milliseconds)
                }
            }
            print("  " + name.padded(to: 62) + " found \(found)/\(total), \(extra) false"
                  + (scale == 1 ? String(format: ", %5.1f analyses/s", 1000 / samples.median) : ""))
        }
    }
}

private extension LumaPicture {
    /// The picture twice as wide and high, each pixel repeated 2x2 (no filter).
    func pixelsDoubled() -> LumaPicture {
        let target = PixelSize(width: 2 * size.width, height: 2 * size.height)
        var doubled = [UInt8](repeating: 0, count: target.area)
        for y in 0..<target.height {
            for x in 0..<target.width { doubled[y * target.width + x] = pixels[(y / 2) * size.width + x / 2] }
        }
        return LumaPicture(size: target, pixels: doubled)
    }
}
