import Foundation
import Imaging

extension BenchmarkCommand {
    /// The merge row: a 12 MP "hand-held dim clip" cut from a real photo (Landscape_1.jpg
    /// of the orientation examples, scaled up by ImageMagick), each neighbour shifted by a few
    /// pixels, Gaussian noise of σ 10 (luma) and 6 (chroma) added: the time ``FrameMerger`` adds
    /// for the reference and 2 or 4 neighbours, and the luma PSNR it gains against the clean
    /// picture, away from the edges.
    func compareFrameMerging(rounds: Int) throws {
        guard let clip = try BenchmarkClip(command: self, shifts: 5, brightness: 1, lumaNoise: 10, chromaNoise: 6) else { return }
        let (clean, frames, interior) = (clip.clean, clip.frames, clip.interior)
        let alone = frames[0].lumaPSNR(against: clean, in: interior)
        let merger = FrameMerger(), clock = ContinuousClock()
        print("photocap benchmark: frame merge, 12 MP hand-held dim clip (luma σ 10), \(merger.threads) threads, \(rounds) rounds, medians")
        for count in [2, 4] {
            var samples: [Double] = []
            var merged = frames[0]
            for round in 0...rounds {
                let start = clock.now
                merged = try merger.merge(reference: frames[0], neighbours: Array(frames[1...count])).image
                if round > 0 { samples.append((clock.now - start).milliseconds) }
            }
            let gain = merged.lumaPSNR(against: clean, in: interior) - alone
            print("  " + "frame merge, 12 MP, reference + \(count) neighbours".padded(to: 62)
                  + String(format: " %8.2f ms  %+5.2f dB luma PSNR (%.2f dB alone)", samples.median, gain, alone))
        }
    }
}

/// The merging material at 12 MP: frames cut from a real photo (Landscape_1.jpg of the
/// orientation examples, scaled up by ImageMagick) at a few pixels' offset each, dimmed by
/// `brightness`, with Gaussian noise added; frame 0 is the reference, `clean` its picture
/// without noise.
struct BenchmarkClip {
    static let shifts = [(0, 0), (3, -2), (-5, 4), (7, 1), (-2, -6), (1, 5), (-4, -3)]
    let size = PixelSize(width: 4000, height: 3000)
    let clean: PlanarImage
    let frames: [PlanarImage]
    /// The clean picture of each frame, for judging a photo at whichever frame it fits best.
    let cleanFrames: [PlanarImage]

    /// Nil when ImageMagick cannot read the photo (the row says so).
    init?(command: BenchmarkCommand, shifts count: Int, brightness: Double, lumaNoise: Double, chromaNoise: Double) throws {
        let photoPath = "TestImages/third-party/recurser-exif-orientation-examples/Landscape_1.jpg"
        let (size, margin) = (self.size, 16)
        let full = PixelSize(width: size.width + 2 * margin, height: size.height + 2 * margin)
        guard var rgb = command.imageMagickRGB(photoPath, ["-resize", "\(full.width)x\(full.height)!"],
                                                        byteCount: full.area * 3, row: "frame merge") else { return nil }
        if brightness != 1 { rgb = rgb.map { UInt8((Double($0) * brightness).rounded()) } }
        // The window whose pixel (x, y) shows the reference's (x + sx, y + sy).
        func window(_ sx: Int, _ sy: Int) throws -> PlanarImage {
            let start: Int = ((margin + sy) * full.width + margin + sx) * 3
            return try rgb.withUnsafeBufferPointer { (pixels: UnsafeBufferPointer<UInt8>) throws -> PlanarImage in
                let corner = UnsafeBufferPointer(rebasing: pixels[start...])
                return try PlanarImage(rgb: corner, size: size, bytesPerRow: full.width * 3)
            }
        }
        cleanFrames = try Self.shifts.prefix(count).map { try window($0.0, $0.1) }
        clean = cleanFrames[0]
        var random: UInt64 = 36
        frames = try Self.shifts.prefix(count).map { sx, sy in
            let frame = try window(sx, sy)
            frame.addNoise(luma: lumaNoise, chroma: chromaNoise, seed: &random)
            return frame
        }
    }

    /// Where every frame has data, the edges left out.
    var interior: PixelRect { PixelRect(x: 16, y: 16, size: PixelSize(width: size.width - 32, height: size.height - 32)) }

    /// Luma PSNR of `image` against the clean frame it fits best.
    func bestPSNR(_ image: PlanarImage) -> Double {
        cleanFrames.map { image.lumaPSNR(against: $0, in: interior) }.max() ?? 0
    }

    /// The noisy frames as a YUV4MPEG2 clip (full-range 4:2:0).
    func y4m(framesPerSecond: Int) -> Data {
        var data = Data("YUV4MPEG2 W\(size.width) H\(size.height) F\(framesPerSecond):1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\n".utf8)
        for frame in frames {
            data.append(contentsOf: Array("FRAME\n".utf8))
            for plane in 0..<3 { data.append(contentsOf: frame.packedPlane(plane)) }
        }
        return data
    }
}

extension PlanarImage {
    /// Adds Gaussian noise (Box–Muller on a 64-bit LCG from `seed`, so every run gets the same
    /// clip) of σ `luma` to plane 0 and `chroma` to the others.
    fileprivate func addNoise(luma: Double, chroma: Double, seed state: inout UInt64) {
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / 9_007_199_254_740_992
        }
        for plane in 0..<3 {
            let planeSize = size(ofPlane: plane), rowStride = stride(ofPlane: plane), base = baseAddress(ofPlane: plane)
            let sigma = plane == 0 ? luma : chroma
            for row in 0..<planeSize.height {
                for column in 0..<planeSize.width {
                    let (u, v) = (max(Double.leastNonzeroMagnitude, uniform()), uniform())
                    let noise = sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
                    let value = Double(base[row * rowStride + column]) + noise
                    base[row * rowStride + column] = UInt8(max(0, min(255, value.rounded())))
                }
            }
        }
    }

    /// Luma PSNR against `clean` in `rect`.
    fileprivate func lumaPSNR(against clean: PlanarImage, in rect: PixelRect) -> Double {
        var squares = 0.0
        let (own, other) = (baseAddress(ofPlane: 0), clean.baseAddress(ofPlane: 0))
        for row in rect.y..<rect.y + rect.size.height {
            for column in rect.x..<rect.x + rect.size.width {
                let difference = Double(own[row * lumaStride + column]) - Double(other[row * clean.lumaStride + column])
                squares += difference * difference
            }
        }
        return 10 * log10(255 * 255 * Double(rect.size.area) / squares)
    }
}
