import Foundation
import Imaging
import PhotoCapture
import Testing
import TestSupport

/// Photos merged from several frames of the live stream, on clips made from a real
/// photo and played by the clip camera: a dim hand-held clip (each frame shifted by a few
/// pixels, noise of a dim scene) and a still one through which a dark square moves.
@Suite(.serialized) struct MultiFrameMergingTests {
    static let folder = TestPaths.testImages.appendingPathComponent("third-party/recurser-exif-orientation-examples")
    /// Seljalandsfoss at 1800x1200; the frames are cut from its middle (rock, water, grass).
    static let photo = Result { try ReferenceDecoder.djpeg(folder.appendingPathComponent("Landscape_1.jpg").path) }
    static let size = PixelSize(width: 640, height: 480)
    static let shifts = [(0, 0), (3, -2), (-5, 4), (7, 1), (-2, -6), (1, 5), (-4, -3), (6, -5), (2, 3), (-3, 1)]

    /// The hand-held clip at a fifth of the photo's light (a dim room: mean luma about 25)
    /// with noise of σ 6 in luma, 4 in chroma.
    static let dim = Result {
        HandheldClip(photo: try photo.get(), frameSize: size, margin: 400, shifts: shifts, lumaNoise: 6, chromaNoise: 4,
                     brightness: 0.2)
    }

    /// A camera playing `frames` at 30 fps, over and over.
    static func camera(_ frames: [PlanarImage], in folder: TemporaryDirectory) throws -> CaptureDevice {
        let path = try folder.write(HandheldClip.y4m(frames, framesPerSecond: 30), named: "clip.y4m")
        return try CaptureDevice.clip(path: path, loops: true)
    }

    /// Luma PSNR of `photo` against the clean picture of the clip frame it fits best (each
    /// frame's shift tried: the request's frame is whichever was under way).
    static func bestPSNR(_ photo: CapturePhoto, _ clip: HandheldClip) throws -> Double {
        try clip.shifts.map { sx, sy in
            HandheldClip.psnr(photo.pixelBuffer.image, try clip.window(at: (clip.margin + sx, clip.margin + sy)), in: clip.interior)
        }.max()!
    }

    /// How many dB of luma PSNR `merged` gains over `alone` (a photo at .speed) against the
    /// clip's scene, printed for the log under `scene`.
    static func gain(of merged: CapturePhoto, over alone: CapturePhoto, _ clip: HandheldClip, scene: String) throws -> Double {
        let (before, after) = (try bestPSNR(alone, clip), try bestPSNR(merged, clip))
        print(String(format: "MultiFrameMerging: %@, luma PSNR .speed %.2f dB, .%@ %.2f dB (%+.2f)",
                     scene, before, "\(merged.resolvedSettings.frameMerging.prioritization)", after, after - before))
        return after - before
    }

    /// A photo of the running `output` at `prioritization`, as a pixel buffer.
    static func photo(_ output: PhotoOutput, _ prioritization: PhotoQualityPrioritization,
                      format: PhotoFormat = .uncompressed) async throws -> CapturePhoto {
        var settings = PhotoSettings(format: format)
        settings.photoQualityPrioritization = prioritization
        return try await output.capturePhoto(with: settings)
    }

    /// Waits (at most 20 s, for a machine busy with the rest of the suite) until `condition`.
    static func wait(until condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(condition())
    }

    @Test func qualityMergesSevenFramesAndGainsFourDecibels() async throws {
        let clip = try Self.dim.get()
        let folder = try TemporaryDirectory("merge-quality")
        let (session, output) = try await runningSession(try Self.camera(try clip.frames(Self.shifts.count).frames, in: folder),
                                                         maxQualityPrioritization: .quality)
        try await stoppingAfterwards(session) {
            try await Task.sleep(for: .milliseconds(400))  // frames before the request in hand
            let alone = try await Self.photo(output, .speed)
            let one = alone.resolvedSettings.frameMerging
            #expect(one.prioritization == .speed && one.framesPlanned == 1 && one.framesMerged == 1 && one.limitation == nil)
            let merged = try await Self.photo(output, .quality)
            let merging = merged.resolvedSettings.frameMerging
            #expect(merging.framesPlanned == 7 && merging.framesMerged == 7 && merging.limitation == nil, "\(merging)")
            #expect(try Self.gain(of: merged, over: alone, clip, scene: "dim hand-held clip") >= 4)

            // Through the encode: JPEGs of both, decoded by libjpeg's djpeg, judged the same way.
            let jpegs = try await [PhotoQualityPrioritization.speed, .quality].asyncMap { level in
                let photo = try await Self.photo(output, level, format: .jpeg)
                let path = try folder.write(Array(try #require(photo.fileDataRepresentation())), named: "\(level).jpg")
                let rgb = try ReferenceDecoder.djpeg(path)
                let planes = try rgb.pixels.withUnsafeBufferPointer { try PlanarImage(rgb: $0, size: rgb.size) }
                return try clip.shifts.map { sx, sy in
                    HandheldClip.psnr(planes, try clip.window(at: (clip.margin + sx, clip.margin + sy)), in: clip.interior)
                }.max()!
            }
            print(String(format: "MultiFrameMerging: the same as JPEGs (quality 90): %.2f dB, %.2f dB (%+.2f)",
                         jpegs[0], jpegs[1], jpegs[1] - jpegs[0]))
            #expect(jpegs[1] - jpegs[0] >= 4)
        }
    }

    @Test func balancedMergesOnlyInTheDark() async throws {
        let clip = try Self.dim.get()
        let folder = try TemporaryDirectory("merge-balanced")
        let (session, output) = try await runningSession(try Self.camera(try clip.frames(Self.shifts.count).frames, in: folder))
        try await stoppingAfterwards(session) {
            #expect(output.maxPhotoQualityPrioritization == .balanced)
            try await Self.wait { output.isFlashScene }
            try await Task.sleep(for: .milliseconds(200))  // two frames kept since the scene was judged dark
            let alone = try await Self.photo(output, .speed)
            let merged = try await Self.photo(output, .balanced)
            let merging = merged.resolvedSettings.frameMerging
            #expect(merging.framesPlanned == 3 && merging.framesMerged == 3 && merging.limitation == nil, "\(merging)")
            #expect(try Self.gain(of: merged, over: alone, clip, scene: "dark scene") >= 2)

            // The same clip in full light: one frame.
            let bright = HandheldClip(photo: clip.photo, frameSize: clip.frameSize, margin: clip.margin, shifts: clip.shifts,
                                      lumaNoise: clip.lumaNoise, chromaNoise: clip.chromaNoise)
            let (lit, litOutput) = try await runningSession(try Self.camera(try bright.frames(4).frames, in: folder))
            try await stoppingAfterwards(lit) {
                try await Self.wait { lit.input?.sceneMonitor.lighting == .normal }
                let one = try await Self.photo(litOutput, .balanced).resolvedSettings.frameMerging
                #expect(one.framesPlanned == 1 && one.framesMerged == 1 && one.limitation == .sceneBright, "\(one)")
            }
        }
    }

    @Test func aMovingObjectAppearsOnceWhereTheReferenceHasIt() async throws {
        // On a tripod in full light: a dark square crosses the picture, 76 pixels a frame.
        let still = HandheldClip(photo: try Self.photo.get(), frameSize: Self.size, margin: 400,
                                 shifts: Array(repeating: (0, 0), count: 8), lumaNoise: 6, chromaNoise: 4)
        let places = (0..<8).map { (x: 8 + 76 * $0, y: 200) }
        let folder = try TemporaryDirectory("merge-ghost")
        let frames = try still.frames(8, squares: places.map { [$0] }).frames
        let (session, output) = try await runningSession(try Self.camera(frames, in: folder), maxQualityPrioritization: .quality)
        try await stoppingAfterwards(session) {
            try await Task.sleep(for: .milliseconds(400))
            let photo = try await Self.photo(output, .quality)
            #expect(photo.resolvedSettings.frameMerging.framesMerged == 7, "\(photo.resolvedSettings.frameMerging)")
            // The clip camera numbers frames from 1 along its timeline.
            let reference = Int((photo.frameSequence - 1) % 8)
            let merged = photo.pixelBuffer.image
            let background = try still.window(at: (still.margin, still.margin))
            let withSquare = try still.window(at: (still.margin, still.margin), squares: [.init(origin: places[reference])])
            let side = PixelSize(width: HandheldClip.Square.side, height: HandheldClip.Square.side)
            for (index, place) in places.enumerated() {
                let rect = PixelRect(x: place.x, y: place.y, size: side)
                if index == reference {
                    // The square, sharp: the reference's own pixels (its noise not averaged away,
                    // as neighbours show background there), nothing of the background mixed in.
                    let difference = HandheldClip.differences(merged, withSquare, in: rect)
                    #expect(difference.absolute <= still.lumaNoise && abs(difference.signed) <= 1, "reference square: \(difference)")
                } else {
                    // Where a neighbour had it: the background within half the noise (an average of
                    // seven frames would leave a square a seventh as dark: a ghost).
                    let difference = HandheldClip.differences(merged, background, in: rect)
                    #expect(difference.absolute <= still.lumaNoise / 2 && abs(difference.signed) <= 1, "square \(index): \(difference)")
                }
            }
        }
    }

    @Test func aRequestAboveTheOutputsMaximumIsRejectedBeforeCapture() async throws {
        let (session, output) = try await runningSession(CaptureDevice.synthetic())
        try await stoppingAfterwards(session) {
            var settings = PhotoSettings(format: .jpeg)
            settings.photoQualityPrioritization = .quality
            #expect(throws: PhotoCaptureError(.qualityPrioritizationAboveMaximum(requested: .quality, maximum: .balanced),
                                              uniqueID: settings.uniqueID)) {
                try output.capturePhoto(with: settings, delegate: NothingDelegate())
            }
            output.maxPhotoQualityPrioritization = .quality
            let resolved = try output.resolvedSettings(for: settings)
            #expect(resolved.frameMerging.framesPlanned == 7)
        }
    }
}

/// A delegate that ignores every call.
private final class NothingDelegate: PhotoCaptureDelegate {
    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: (any Error)?) {}
    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings, error: (any Error)?) {}
}

private extension Array {
    /// `transform` of each element, one after another.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
