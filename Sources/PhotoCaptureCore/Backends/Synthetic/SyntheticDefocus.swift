import Imaging

/// The synthetic lens on pixels: a defocused picture is the sharp one box-blurred, with a radius
/// in proportion to how far the lens is from the in-focus position. Deterministic (integer
/// running sums, edges repeated), and cheap at any radius: two passes of one add and one
/// subtract per sample.
enum SyntheticDefocus {
    /// The blur radius, as a fraction of the picture's short side, with the lens at the far end
    /// of its range from the in-focus position.
    static let maximumRadiusFraction = 0.08

    /// The radius in pixels for `defocus` (0 sharp ... 1 the whole lens range away) at `size`.
    static func radius(defocus: Double, size: PixelSize) -> Int {
        Int((min(max(defocus, 0), 1) * maximumRadiusFraction * Double(min(size.width, size.height))).rounded())
    }

    /// `image` box-blurred with `radius` horizontally, then vertically (0 returns it unchanged).
    static func blurred(_ image: RGBImage, radius: Int) -> RGBImage {
        guard radius > 0, image.size.area > 0 else { return image }
        let (width, height) = (image.size.width, image.size.height)
        var across = [UInt8](repeating: 0, count: image.pixels.count)
        var result = across
        image.pixels.withUnsafeBufferPointer { source in
            across.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    boxBlur(source, target, start: y * width * 3, count: width, stride: 3, radius: radius)
                }
            }
        }
        across.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for x in 0..<width {
                    boxBlur(source, target, start: x * 3, count: height, stride: width * 3, radius: radius)
                }
            }
        }
        return RGBImage(size: image.size, pixels: result)
    }

    /// One line of `count` RGB pixels `stride` bytes apart, each channel averaged over 2r+1
    /// pixels.
    private static func boxBlur(_ source: UnsafeBufferPointer<UInt8>, _ target: UnsafeMutableBufferPointer<UInt8>,
                                start: Int, count: Int, stride: Int, radius: Int) {
        let window = 2 * radius + 1
        for channel in 0..<3 {
            let base = start + channel
            func sample(_ index: Int) -> Int { Int(source[base + min(max(index, 0), count - 1) * stride]) }
            var sum = 0
            for index in -radius...radius { sum += sample(index) }
            for index in 0..<count {
                target[base + index * stride] = UInt8((sum + window / 2) / window)
                sum += sample(index + radius + 1) - sample(index - radius)
            }
        }
    }
}
