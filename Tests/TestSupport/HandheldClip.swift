import Foundation
import Imaging

/// A "hand-held clip" made from a real photo: frames cut from it at a few pixels' offset each
/// (frame 0, the reference, at ``shifts``[0]), optionally dimmed, with noise added — and judged
/// against the clean picture. The material for merging frames.
package struct HandheldClip: Sendable {
    /// A dark square drawn into a frame at `origin`, in frame coordinates.
    package struct Square: Sendable {
        package var origin: (x: Int, y: Int)
        package static let side = 64
        package init(origin: (x: Int, y: Int)) { self.origin = origin }
    }

    package let photo: RGBImage
    /// Frames are this large, cut at ``margin`` + their shift from the photo's corner.
    package let frameSize: PixelSize
    package let margin: Int
    /// Each frame's offset in the photo from the reference's: a frame's pixel (x, y) shows the
    /// reference's (x + sx, y + sy).
    package let shifts: [(Int, Int)]
    /// σ of the noise added, on 8-bit luma and chroma.
    package let lumaNoise: Double, chromaNoise: Double
    /// The photo's RGB values are scaled by this before noise is added: below 1, a dim scene.
    package let brightness: Double

    package init(photo: RGBImage, frameSize: PixelSize, margin: Int = 16, shifts: [(Int, Int)],
                lumaNoise: Double, chromaNoise: Double, brightness: Double = 1) {
        (self.photo, self.frameSize, self.margin, self.shifts) = (photo, frameSize, margin, shifts)
        (self.lumaNoise, self.chromaNoise, self.brightness) = (lumaNoise, chromaNoise, brightness)
    }

    /// Where every frame has data, with the tiles along the edges, which a shifted neighbour
    /// only partly covers, left out.
    package var interior: PixelRect {
        PixelRect(x: 16, y: 16, size: PixelSize(width: frameSize.width - 32, height: frameSize.height - 32))
    }

    /// The window of `rgb` at `origin`, dimmed, with `squares` drawn in, as a planar image.
    package func window(of rgb: RGBImage? = nil, at origin: (x: Int, y: Int), squares: [Square] = []) throws -> PlanarImage {
        let rgb = rgb ?? photo
        var pixels = [UInt8](repeating: 0, count: frameSize.area * 3)
        let rowBytes = frameSize.width * 3
        for row in 0..<frameSize.height {
            let start = ((origin.y + row) * rgb.size.width + origin.x) * 3
            pixels.replaceSubrange(row * rowBytes..<(row + 1) * rowBytes, with: rgb.pixels[start..<start + rowBytes])
        }
        if brightness != 1 { pixels = pixels.map { UInt8((Double($0) * brightness).rounded()) } }
        for square in squares {
            for row in square.origin.y..<square.origin.y + Square.side {
                for column in square.origin.x..<square.origin.x + Square.side {
                    let index = (row * frameSize.width + column) * 3
                    (pixels[index], pixels[index + 1], pixels[index + 2]) = (12, 10, 30)
                }
            }
        }
        return try pixels.withUnsafeBufferPointer { try PlanarImage(rgb: $0, size: frameSize) }
    }

    /// A copy of `image` with noise of σ ``lumaNoise`` (luma) and ``chromaNoise`` (chroma)
    /// added: each sample a sum of four uniform bytes (Irwin–Hall, near enough Gaussian), scaled.
    package func noisy(_ image: PlanarImage, seed: UInt64) throws -> PlanarImage {
        var generator = SeededGenerator(seed: seed)
        let copy = try PlanarImage(size: image.size)
        for plane in 0..<3 {
            let size = image.size(ofPlane: plane), stride = image.stride(ofPlane: plane)
            // Four uniform bytes sum to a mean of 510 and a standard deviation of 147.8.
            let scale = (plane == 0 ? lumaNoise : chromaNoise) / 147.8
            let source = image.baseAddress(ofPlane: plane), target = copy.baseAddress(ofPlane: plane)
            for row in 0..<size.height {
                var column = 0
                while column < size.width {
                    let bits = generator.next()
                    for half in 0..<2 where column < size.width {
                        let word = bits >> (32 * UInt64(half))
                        let sum = Int(word & 255) + Int((word >> 8) & 255) + Int((word >> 16) & 255) + Int((word >> 24) & 255)
                        let value = Double(source[row * stride + column]) + Double(sum - 510) * scale
                        target[row * stride + column] = UInt8(max(0, min(255, value.rounded())))
                        column += 1
                    }
                }
            }
        }
        return copy
    }

    /// The clean reference and the noisy frames (frame 0 the reference), from
    /// `shifts.prefix(count)`; `squares[i]` are drawn into frame i at reference coordinates.
    package func frames(_ count: Int, squares: [[(x: Int, y: Int)]] = []) throws -> (clean: PlanarImage, frames: [PlanarImage]) {
        var clean: PlanarImage?
        let frames = try (0..<count).map { index in
            let (sx, sy) = shifts[index]
            // The reference's point (x, y) is this frame's (x - sx, y - sy).
            let drawn = (index < squares.count ? squares[index] : []).map { Square(origin: ($0.x - sx, $0.y - sy)) }
            let image = try window(at: (margin + sx, margin + sy), squares: drawn)
            if index == 0 { clean = image }
            return try noisy(image, seed: 0x5EED_0000 + UInt64(index))
        }
        return (clean!, frames)
    }

    /// Mean signed, absolute and squared differences of plane `plane` (luma by default) of
    /// `image` and `clean` in `rect`; `clean`'s stride may differ.
    package static func differences(_ image: PlanarImage, _ clean: PlanarImage, in rect: PixelRect,
                                   plane: Int = 0) -> (signed: Double, absolute: Double, squared: Double) {
        let (a, b) = (image.baseAddress(ofPlane: plane), clean.baseAddress(ofPlane: plane))
        let (strideA, strideB) = (image.stride(ofPlane: plane), clean.stride(ofPlane: plane))
        var (signed, absolute, squared) = (0, 0, 0)
        for row in rect.y..<rect.y + rect.size.height {
            for column in rect.x..<rect.x + rect.size.width {
                let difference = Int(a[row * strideA + column]) - Int(b[row * strideB + column])
                (signed, absolute, squared) = (signed + difference, absolute + abs(difference), squared + difference * difference)
            }
        }
        let count = Double(rect.size.area)
        return (Double(signed) / count, Double(absolute) / count, Double(squared) / count)
    }

    /// PSNR of `image`'s plane `plane` against `clean`'s in `rect`.
    package static func psnr(_ image: PlanarImage, _ clean: PlanarImage, in rect: PixelRect, plane: Int = 0) -> Double {
        10 * log10(255 * 255 / differences(image, clean, in: rect, plane: plane).squared)
    }

    /// `frames` as a YUV4MPEG2 clip (full-range 4:2:0, as `ffmpeg -f yuv4mpegpipe` writes JPEG's).
    package static func y4m(_ frames: [PlanarImage], framesPerSecond: Int) -> [UInt8] {
        guard let size = frames.first?.size else { return [] }
        var bytes = Array("YUV4MPEG2 W\(size.width) H\(size.height) F\(framesPerSecond):1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\n".utf8)
        for frame in frames {
            bytes += Array("FRAME\n".utf8)
            for plane in 0..<3 { bytes += frame.packedPlane(plane) }
        }
        return bytes
    }
}
