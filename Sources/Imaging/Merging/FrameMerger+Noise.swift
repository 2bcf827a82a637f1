import CImagingKernels

extension FrameMerger {
    /// The noise level σ of `image`'s luma (8-bit units): the median magnitude of Immerkær's
    /// 3×3 high-pass over a grid of every other sample, as a Gaussian's σ (median absolute
    /// deviation · 1.4826, over the mask's gain of 6). The median keeps edges and texture,
    /// which only a minority of the samples show, from counting as noise.
    package static func noiseLevel(of image: PlanarImage) -> Double {
        var histogram = [UInt32](repeating: 0, count: 1024)
        histogram.withUnsafeMutableBufferPointer { bins in
            pc_highpass_histogram(image.baseAddress(ofPlane: 0), image.lumaStride, Int32(image.size.width),
                                  Int32(image.size.height), 2, bins.baseAddress!)
        }
        let total = histogram.reduce(0) { $0 + Int($1) }
        guard total > 0 else { return 0 }
        var seen = 0
        for (magnitude, count) in histogram.enumerated() {
            // The median within its bin, taking the bin's samples as spread evenly over it.
            if 2 * (seen + Int(count)) >= total {
                let median = Double(magnitude) + (Double(total) / 2 - Double(seen)) / Double(count) - 0.5
                return max(0, median) * 1.4826 / 6
            }
            seen += Int(count)
        }
        return 1023 * 1.4826 / 6
    }
}
