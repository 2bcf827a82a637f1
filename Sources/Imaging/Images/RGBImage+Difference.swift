import CImagingKernels

/// How two pictures of one size differ, sample by sample (0...255 per channel).
package struct DifferenceStatistics: Sendable, Equatable {
    /// The mean absolute difference per sample.
    package var mean: Double
    /// The largest absolute difference of any sample.
    package var maximum: Int
    /// The mean squared difference per sample.
    package var meanSquared: Double
}

extension RGBImage {
    /// Mean, maximum and mean squared difference per sample against `other` of the same size.
    package func differenceStatistics(to other: RGBImage) -> DifferenceStatistics {
        precondition(size == other.size, "comparing \(size) with \(other.size)")
        var absolute: UInt64 = 0, squared: UInt64 = 0, maximum: UInt8 = 0
        pixels.withUnsafeBufferPointer { a in
            other.pixels.withUnsafeBufferPointer { b in
                pc_difference_statistics(a.baseAddress, b.baseAddress, a.count, &absolute, &squared, &maximum)
            }
        }
        let count = Double(max(pixels.count, 1))
        return DifferenceStatistics(mean: Double(absolute) / count, maximum: Int(maximum), meanSquared: Double(squared) / count)
    }

    /// A picture of where `other` (same size) differs from this one: a dim grey copy of this
    /// picture where they agree, red (brighter for larger differences) where they do not.
    package func differenceImage(to other: RGBImage) -> RGBImage {
        precondition(size == other.size, "comparing \(size) with \(other.size)")
        var output = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { a in
            other.pixels.withUnsafeBufferPointer { b in
                output.withUnsafeMutableBufferPointer { pc_difference_image(a.baseAddress, b.baseAddress, size.area, $0.baseAddress) }
            }
        }
        return RGBImage(size: size, pixels: output)
    }
}
