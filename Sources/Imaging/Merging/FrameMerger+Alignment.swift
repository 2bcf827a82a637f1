import CImagingKernels
import Dispatch

extension FrameMerger {
    /// Each neighbour's translation to the reference (its pixel (x + dx, y + dy) shows the
    /// reference's (x, y)), found on luma pyramids: every shift within ``coarseRadius`` at the
    /// coarsest level, then ±1 px around the doubled shift at each finer level; the shift with
    /// the least mean absolute difference over the area every tried shift covers wins.
    package func align(reference: PlanarImage, neighbours: [PlanarImage]) -> [(dx: Int, dy: Int)] {
        let referencePyramid = LumaPyramid(reference, downsamplings: downsamplings, smallestSide: 32)
        let found = UnsafeMutableBufferPointer<(dx: Int, dy: Int)>.allocate(capacity: neighbours.count)
        defer { found.deallocate() }
        nonisolated(unsafe) let results = found
        let radius = coarseRadius
        DispatchQueue.concurrentPerform(iterations: neighbours.count) { index in
            let pyramid = LumaPyramid(neighbours[index], downsamplings: referencePyramid.levels.count - 1, smallestSide: 1)
            var shift = (dx: 0, dy: 0)
            for level in stride(from: referencePyramid.levels.count - 1, through: 0, by: -1) {
                let isCoarsest = level == referencePyramid.levels.count - 1
                shift = Self.bestShift(referencePyramid.levels[level], pyramid.levels[level],
                                       around: isCoarsest ? shift : (2 * shift.dx, 2 * shift.dy),
                                       radius: isCoarsest ? radius : 1, rowStep: level == 0 ? 2 : 1)
            }
            results[index] = shift
        }
        return Array(found)
    }

    /// The shift within `radius` of `centre` with the least sum of absolute differences.
    private static func bestShift(_ reference: LumaPyramid.Level, _ other: LumaPyramid.Level, around centre: (dx: Int, dy: Int),
                                  radius: Int, rowStep: Int) -> (dx: Int, dy: Int) {
        let (width, height) = (reference.size.width, reference.size.height)
        let x0 = max(0, radius - centre.dx), x1 = min(width, width - centre.dx - radius)
        let y0 = max(0, radius - centre.dy), y1 = min(height, height - centre.dy - radius)
        guard x1 > x0, y1 > y0 else { return centre }
        var best = centre, least = UInt64.max
        for dy in (centre.dy - radius)...(centre.dy + radius) {
            for dx in (centre.dx - radius)...(centre.dx + radius) {
                let sum = pc_sum_absolute_differences(reference.base, reference.stride, other.base, other.stride,
                                                      Int32(x0), Int32(y0), Int32(x1), Int32(y1), Int32(dx), Int32(dy), Int32(rowStep))
                // Ties go to the shift nearest the centre.
                if sum < least || (sum == least && abs(dx - centre.dx) + abs(dy - centre.dy) < abs(best.dx - centre.dx) + abs(best.dy - centre.dy)) {
                    (best, least) = ((dx, dy), sum)
                }
            }
        }
        return best
    }
}
