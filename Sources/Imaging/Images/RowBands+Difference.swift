import CImagingKernels

/// Sums of the differences between two pictures, added up a band at a time.
package struct DifferenceSums: Sendable, Equatable {
    private var absolute: UInt64 = 0
    private var squared: UInt64 = 0
    private var largest: UInt8 = 0
    private var samples = 0

    /// Nothing yet.
    package init() {}

    /// Adds the differences between `count` samples at `a` and at `b`.
    package mutating func add(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) {
        var (sum, squares, maximum): (UInt64, UInt64, UInt8) = (0, 0, 0)
        pc_difference_statistics(a, b, count, &sum, &squares, &maximum)
        absolute += sum
        squared += squares
        largest = max(largest, maximum)
        samples += count
    }

    /// Mean, maximum and mean squared difference per sample, as
    /// ``RGBImage/differenceStatistics(to:)`` gives for the whole pictures.
    package var statistics: DifferenceStatistics {
        let count = Double(max(samples, 1))
        return DifferenceStatistics(mean: Double(absolute) / count, maximum: Int(largest), meanSquared: Double(squared) / count)
    }
}

extension RowBands.Turn {
    /// Adds the differences between `band` and the pixels of `image` (the turned picture) where
    /// the turn sends it; `scratch` is reused from band to band.
    package func addDifferences(of band: RowBands.Band, against image: RGBImage, to sums: inout DifferenceSums,
                                scratch: inout [UInt8]) {
        let count = band.rows * size.width * 3
        if scratch.count < count { scratch = [UInt8](repeating: 0, count: count) }
        scratch.withUnsafeMutableBufferPointer { gathered in
            gather(band, from: image, into: gathered)
            sums.add(gathered.baseAddress!, band.pixels.baseAddress!, count: count)
        }
    }

    /// Replaces the pixels of `image` where the turn sends `band` with the picture of their
    /// differences (``RGBImage/differenceImage(to:)``): the picture becomes its difference
    /// image band by band, without a second picture.
    package func markDifferences(of band: RowBands.Band, in image: inout RGBImage, scratch: inout [UInt8]) {
        let count = band.rows * size.width * 3
        if scratch.count < 2 * count { scratch = [UInt8](repeating: 0, count: 2 * count) }
        scratch.withUnsafeMutableBufferPointer { buffer in
            let gathered = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
            gather(band, from: image, into: gathered)
            pc_difference_image(gathered.baseAddress, band.pixels.baseAddress, band.rows * size.width, buffer.baseAddress! + count)
            place(RowBands.Band(firstRow: band.firstRow, rows: band.rows, pixels: UnsafeBufferPointer(rebasing: buffer[count..<2 * count])),
                  in: &image)
        }
    }
}
