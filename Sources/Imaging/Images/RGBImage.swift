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
        RGBImage(size: orientation.apply(to: size), pixels: orientation.apply(toPixels: pixels, of: size, bytesPerPixel: 3))
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
