import Foundation
import Imaging
import Testing
import TestSupport

/// ``FrameMerger`` on a "hand-held dim clip" made from a real photo: frames cut from it at a few
/// pixels' offset each (the reference unshifted), with noise of a dim scene added, judged
/// against the clean picture.
@Suite struct FrameMergerTests {
    static let folder = TestPaths.testImages.appendingPathComponent("third-party/recurser-exif-orientation-examples")
    /// Seljalandsfoss at 1800x1200: sky, rock texture, water, lettering.
    static let photo = Result { try ReferenceDecoder.djpeg(folder.appendingPathComponent("Landscape_1.jpg").path) }
    /// Another photo altogether, 1200x1800.
    static let otherPhoto = Result { try ReferenceDecoder.djpeg(folder.appendingPathComponent("Portrait_1.jpg").path) }

    /// Frames of 1.1 MP, σ 10 in luma and 6 in chroma; each frame's offset in the photo from
    /// the reference's (frame 0), so the merger should find (-sx, -sy).
    static let handheld = Result {
        HandheldClip(photo: try photo.get(), frameSize: frameSize, shifts: shifts, lumaNoise: lumaNoise, chromaNoise: 6)
    }
    static let frameSize = PixelSize(width: 1184, height: 896)
    static let shifts = [(0, 0), (3, -2), (-5, 4), (7, 1), (-2, -6), (1, 5), (-4, -3), (6, -5)]
    static let lumaNoise = 10.0
    typealias Square = HandheldClip.Square
    static var interior: PixelRect { PixelRect(x: 16, y: 16, size: PixelSize(width: frameSize.width - 32, height: frameSize.height - 32)) }

    static func window(of rgb: RGBImage, at origin: (x: Int, y: Int)) throws -> PlanarImage {
        try handheld.get().window(of: rgb, at: origin)
    }

    static func noisy(_ image: PlanarImage, seed: UInt64) throws -> PlanarImage { try handheld.get().noisy(image, seed: seed) }

    static func clip(frames count: Int, squares: [[(x: Int, y: Int)]] = []) throws -> (clean: PlanarImage, frames: [PlanarImage]) {
        try handheld.get().frames(count, squares: squares)
    }

    /// The whole clip, made once for the tests that use all of it.
    static let wholeClip = Result { try clip(frames: shifts.count) }

    static func differences(_ image: PlanarImage, _ clean: PlanarImage, in rect: PixelRect,
                            plane: Int = 0) -> (signed: Double, absolute: Double, squared: Double) {
        HandheldClip.differences(image, clean, in: rect, plane: plane)
    }

    static func psnr(_ image: PlanarImage, _ clean: PlanarImage, in rect: PixelRect = interior, plane: Int = 0) -> Double {
        HandheldClip.psnr(image, clean, in: rect, plane: plane)
    }

    @Test func findsEachFramesTranslation() throws {
        let (_, frames) = try Self.wholeClip.get()
        let found = FrameMerger().align(reference: frames[0], neighbours: Array(frames.dropFirst()))
        for (translation, shift) in zip(found, Self.shifts.dropFirst()) {
            #expect(translation.dx == -shift.0 && translation.dy == -shift.1, "found \(translation), applied \(shift)")
        }
    }

    @Test func estimatesTheNoiseLevel() throws {
        let (clean, frames) = try Self.clip(frames: 1)
        let estimate = FrameMerger.noiseLevel(of: frames[0])
        #expect(abs(estimate - Self.lumaNoise) <= 0.2 * Self.lumaNoise, "estimated σ \(estimate), added \(Self.lumaNoise)")
        // The clean photo alone: its edges and texture must not pass for noise.
        #expect(FrameMerger.noiseLevel(of: clean) < 0.3 * Self.lumaNoise)
    }

    @Test func mergingNeighboursRaisesThePSNR() throws {
        let (clean, frames) = try Self.wholeClip.get()
        let alone = Self.psnr(frames[0], clean)
        // Chroma, whose odd luma shifts are half samples: the interior in chroma samples.
        let chromaInterior = PixelRect(x: 8, y: 8, size: PixelSize(width: Self.interior.size.width / 2, height: Self.interior.size.height / 2))
        var gains: [Int: Double] = [:]
        for count in [2, 4, 7] {
            let (merged, report) = try FrameMerger().merge(reference: frames[0], neighbours: Array(frames[1...count]))
            gains[count] = Self.psnr(merged, clean) - alone
            if count == 4 {
                for plane in 1...2 {
                    let gain = Self.psnr(merged, clean, in: chromaInterior, plane: plane) - Self.psnr(frames[0], clean, in: chromaInterior, plane: plane)
                    print(String(format: "FrameMerger: chroma plane %d PSNR gain with 4 neighbours: %.2f dB", plane, gain))
                    // The mean of 5 frames, those shifted by an odd number of luma pixels read as
                    // the mean of 2 or 4 chroma samples (noise variance 1/2 or 1/4): 8.9 dB at best.
                    // Shifts rounded to whole chroma samples instead gave 6.8 dB.
                    #expect(gain >= 8, "plane \(plane)")
                }
            }
            #expect(report.framesUsed == count + 1)
            for neighbour in report.neighbours { #expect(neighbour.contribution > 0.8, "\(report)") }
        }
        print(String(format: "FrameMerger: luma PSNR alone %.2f dB; gain with 2, 4, 7 neighbours: %.2f, %.2f, %.2f dB",
                     alone, gains[2]!, gains[4]!, gains[7]!))
        #expect(gains[4]! >= 4, ".quality's target: 4 dB with 4 neighbours")
        #expect(gains[2]! >= 2)
        #expect(gains[7]! >= gains[4]! + 1)
    }

    @Test func aMovingObjectLeavesNoGhost() throws {
        // A dark square in the sky: in the reference at one place, in each neighbour at another.
        let places = (0..<8).map { (x: 120 + 110 * $0, y: 100) }
        let (clean, frames) = try Self.clip(frames: 8, squares: places.map { [$0] })
        let (merged, report) = try FrameMerger().merge(reference: frames[0], neighbours: Array(frames.dropFirst()))
        // The naive merge: the same aligned frames, averaged with equal weights.
        let naive = try PlanarImage(size: Self.frameSize)
        let (width, height, stride) = (Self.frameSize.width, Self.frameSize.height, naive.lumaStride)
        var sums = [Int](repeating: 0, count: width * height), counts = sums
        for (frame, shift) in zip(frames, Self.shifts) {
            let base = frame.baseAddress(ofPlane: 0)
            // The reference's (x, y) is this frame's (x - sx, y - sy), where it has data.
            for row in max(0, shift.1)..<min(height, height + shift.1) {
                for column in max(0, shift.0)..<min(width, width + shift.0) {
                    sums[row * width + column] += Int(base[(row - shift.1) * stride + column - shift.0])
                    counts[row * width + column] += 1
                }
            }
        }
        for row in 0..<height {
            for column in 0..<width {
                let (sum, count) = (sums[row * width + column], counts[row * width + column])
                naive.baseAddress(ofPlane: 0)[row * stride + column] = UInt8((sum + count / 2) / count)
            }
        }
        let side = PixelSize(width: Square.side, height: Square.side)
        var merges: [String] = []
        for (index, place) in places.enumerated() {
            let rect = PixelRect(x: place.x, y: place.y, size: side)
            let fused = Self.differences(merged, clean, in: rect), averaged = Self.differences(naive, clean, in: rect)
            let (mergedDifference, naiveDifference, meanDifference) = (fused.absolute, averaged.absolute, fused.signed)
            merges.append(String(format: "%.2f/%.2f", mergedDifference, naiveDifference))
            // The square once, where the reference has it: the reference's own pixels, its noise
            // not averaged away (neighbours show sky there), but no sky mixed in.
            // Where a neighbour had it: the clean sky, within half the noise.
            let limit = index == 0 ? Self.lumaNoise : Self.lumaNoise / 2
            #expect(mergedDifference <= limit && abs(meanDifference) <= 1, "square \(index): \(mergedDifference), \(meanDifference)")
            #expect(naiveDifference > limit, "square \(index), naive: \(naiveDifference)")
        }
        print("FrameMerger: squares' mean absolute difference to the clean reference, merged/naive: \(merges)")
        for neighbour in report.neighbours { #expect(neighbour.contribution > 0.8 && neighbour.contribution < 0.99) }
    }

    @Test func framesOfAnotherSceneContributeNothing() throws {
        let (_, frames) = try Self.clip(frames: 1)
        let other = try Self.otherPhoto.get()
        let strangers = try (0..<3).map { index in
            try Self.noisy(try Self.window(of: other, at: (8 + 5 * index, 300 + 40 * index)), seed: 0xD1FF + UInt64(index))
        }
        let (merged, report) = try FrameMerger().merge(reference: frames[0], neighbours: strangers)
        for neighbour in report.neighbours { #expect(neighbour.contribution < 0.01, "\(report)") }
        #expect(report.framesUsed == 1)
        let whole = PixelRect(x: 0, y: 0, size: Self.frameSize)
        #expect(Self.differences(merged, frames[0], in: whole).absolute < 0.1)
    }

    @Test func refusesFramesOfAnotherSize() throws {
        let reference = try PlanarImage(size: PixelSize(width: 64, height: 48))
        let small = try PlanarImage(size: PixelSize(width: 64, height: 46))
        #expect(throws: FrameMergeError.sizeMismatch(index: 1, neighbour: small.size, reference: reference.size)) {
            try FrameMerger().merge(reference: reference, neighbours: [reference, small])
        }
    }

    @Test func refusesAPictureSmallerThanATile() throws {
        let tiny = try PlanarImage(size: PixelSize(width: 7, height: 48))
        #expect(throws: FrameMergeError.tooSmall(tiny.size)) { try FrameMerger().merge(reference: tiny, neighbours: [tiny]) }
    }

    @Test func withoutNeighboursTheReferenceComesBack() throws {
        let (_, frames) = try Self.clip(frames: 1)
        let (merged, report) = try FrameMerger().merge(reference: frames[0], neighbours: [])
        #expect(report.framesUsed == 1 && report.neighbours.isEmpty)
        for plane in 0...2 { #expect(merged.packedPlane(plane) == frames[0].packedPlane(plane)) }
    }
}
