import CImagingKernels

/// Packed 8-bit RGB pixels (R, G, B in memory, rows without padding).
///
/// The reference representation for scenes, decoded files and golden comparisons.
public struct RGBImage: Sendable, Equatable {
    /// Width and height.
    public let size: PixelSize
    /// `size.area * 3` bytes.
    public var pixels: [UInt8]

    /// Wraps `pixels`, which must hold exactly `size.area * 3` bytes.
    public init(size: PixelSize, pixels: [UInt8]) {
        precondition(pixels.count == size.area * 3, "RGB image \(size) needs \(size.area * 3) bytes, got \(pixels.count)")
        self.size = size
        self.pixels = pixels
    }

    /// The colour at (`x`, `y`).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * size.width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// The image with `orientation` applied to its pixels, as a viewer shows a file that carries
    /// that orientation.
    public func transformed(by orientation: Orientation) -> RGBImage {
        guard orientation != .up else { return self }
        let output = orientation.apply(to: size)
        var result = [UInt8](repeating: 0, count: pixels.count)
        // Where source (0,0) lands and how the destination moves per source step in x and in y.
        let origin = orientation.apply(toPoint: (0, 0), in: size)
        let stepX = orientation.apply(toPoint: (min(1, size.width - 1), 0), in: size)
        let stepY = orientation.apply(toPoint: (0, min(1, size.height - 1)), in: size)
        let dx = (x: stepX.x - origin.x, y: stepX.y - origin.y)
        let dy = (x: stepY.x - origin.x, y: stepY.y - origin.y)
        pixels.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for y in 0..<size.height {
                    var tx = origin.x + y * dy.x, ty = origin.y + y * dy.y
                    var s = y * size.width * 3
                    for _ in 0..<size.width {
                        let t = (ty * output.width + tx) * 3
                        target[t] = source[s]; target[t + 1] = source[s + 1]; target[t + 2] = source[s + 2]
                        s += 3; tx += dx.x; ty += dx.y
                    }
                }
            }
        }
        return RGBImage(size: output, pixels: result)
    }

    /// Mean absolute difference per sample (0...255) against `other` of the same size.
    public func meanAbsoluteDifference(to other: RGBImage) -> Double {
        precondition(size == other.size, "comparing \(size) with \(other.size)")
        return pixels.withUnsafeBufferPointer { a in
            other.pixels.withUnsafeBufferPointer { b in
                pc_mean_absolute_difference(a.baseAddress, b.baseAddress, a.count)
            }
        }
    }

    /// The image converted to the planar form the encoders take.
    package func planarImage() throws(ImagingError) -> PlanarImage {
        try pixels.withUnsafeBufferPointer { (buffer) throws(ImagingError) in
            try PlanarImage(rgb: buffer, size: size)
        }
    }
}

extension PlanarImage {
    /// The pixels as an ``RGBImage``.
    package func rgbImage() throws(ImagingError) -> RGBImage {
        RGBImage(size: size, pixels: try rgbBytes())
    }
}
