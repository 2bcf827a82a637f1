import CImagingKernels
import Dispatch

/// Fuses a reference frame with hand-held neighbours of the same scene into one picture with
/// less noise, leaving out what moved.
///
/// HDR+ (Hasinoff et al. 2016) aligns each 16×16 or 32×32 tile of every frame on its own and
/// merges tiles in the frequency domain, pairwise against the reference, with a Wiener-like
/// shrinkage of every frequency: robust to parallax and rotation, but some seconds of CPU per
/// 12 MP burst without a DSP. Here, for a budget of a few hundred milliseconds on two cores,
/// each neighbour gets one global integer translation, found coarse to fine on a luma pyramid
/// (sum of absolute differences, ±4 px at 1/16, ±1 px at each finer level), and the merge is a
/// weighted mean in the pixel domain: each neighbour's 8×8 luma tile (4×4 in chroma) weighs 1
/// while it differs from the reference by no more than noise, down to 0 as the excess
/// reaches a few σ², so moving things drop out, and a neighbour that matches in less than half
/// of its tiles (another scene) drops out whole. Hand-held shake
/// between frames a few tens of milliseconds apart is mostly translation; sub-pixel shifts are
/// not resampled, as interpolating a neighbour would blur it and its noise alike.
package struct FrameMerger: Sendable {
    /// Pyramid levels below full size (each halves the sides).
    package var downsamplings: Int
    /// The search radius, in pixels, at the coarsest level.
    package var coarseRadius: Int
    /// The excess of a tile's mean squared difference over the noise's 2σ² (in σ²) at which a
    /// neighbour's weight there reaches 0.
    package var rejection: Double
    /// Threads merging bands of rows side by side, and aligning neighbours.
    package var threads: Int

    /// Creates a merger; `threads` defaults to one per core.
    package init(downsamplings: Int = 4, coarseRadius: Int = 4, rejection: Double = 4, threads: Int = Processors.active) {
        self.downsamplings = max(0, downsamplings)
        self.coarseRadius = max(1, coarseRadius)
        self.rejection = rejection
        self.threads = max(1, threads)
    }

    /// The merged picture and the report. `noiseLevel` is the reference's σ on 8-bit luma;
    /// nil estimates it from the reference (``noiseLevel(of:)``).
    package func merge(reference: PlanarImage, neighbours: [PlanarImage],
                       noiseLevel: Double? = nil) throws(FrameMergeError) -> (image: PlanarImage, report: FrameMergeReport) {
        let size = reference.size
        guard size.width >= 8, size.height >= 8 else { throw .tooSmall(size) }
        for (index, neighbour) in neighbours.enumerated() where neighbour.size != size {
            throw .sizeMismatch(index: index, neighbour: neighbour.size, reference: size)
        }
        let sigma = max(0.5, noiseLevel ?? Self.noiseLevel(of: reference))
        let translations = align(reference: reference, neighbours: neighbours)
        let output: PlanarImage
        do { output = try PlanarImage(size: size) } catch { preconditionFailure("a checked size allocates: \(error)") }

        let count = neighbours.count
        let tilesX = (size.width + 7) / 8, tilesY = (size.height + 7) / 8
        nonisolated(unsafe) let weights = UnsafeMutablePointer<UInt16>.allocate(capacity: max(1, count * tilesX * tilesY))
        defer { weights.deallocate() }
        let planes = MergePlanes(reference: reference, neighbours: neighbours, translations: translations,
                                 output: output, tilesY: tilesY)
        let bands = max(1, min(threads, tilesY))
        let rowsPerBand = (tilesY + bands - 1) / bands
        let (variance, rejection) = (Float(sigma * sigma), Float(rejection))
        // Bands of tile rows, one per thread.
        func inBands(_ body: @Sendable (_ first: Int32, _ rows: Int32) -> Void) {
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let first = band * rowsPerBand, rows = min(tilesY, first + rowsPerBand) - first
                if rows > 0 { body(Int32(first), Int32(rows)) }
            }
        }
        inBands { first, rows in
            planes.withPlanes { pc_merge_tile_weights($0, Int32(count), variance, rejection, first, rows, weights) }
        }
        // A neighbour of which less than half matches is of another scene (or the camera swung
        // away): the tiles it matches by chance, flat ones mostly, would only bring in the
        // other picture's texture at low contrast.
        let tileCount = tilesX * tilesY
        for index in 0..<count {
            let shares = UnsafeMutableBufferPointer(start: weights + index * tileCount, count: tileCount)
            if 2 * shares.count(where: { $0 > 0 }) < tileCount { shares.update(repeating: 0) }
        }
        inBands { first, rows in
            let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: size.width)
            defer { sums.deallocate() }
            planes.withPlanes { pc_merge_tile_rows($0, Int32(count), first, rows, weights, sums) }
        }

        let report = FrameMergeReport(noiseLevel: sigma, neighbours: translations.enumerated().map { index, translation in
            let shares = UnsafeBufferPointer(start: weights + index * tileCount, count: tileCount)
            let total = shares.reduce(0) { $0 + Int($1) }
            return FrameMergeReport.Neighbour(dx: translation.dx, dy: translation.dy, contribution: Double(total) / Double(256 * tileCount))
        })
        return (output, report)
    }
}
