import Dispatch
import Imaging
import Testing

/// The thumbnail made band by band on the strip threads (``BandedReduction``), judged against
/// box means computed here plainly, one pixel at a time, and against libyuv's box scaling.
@Suite struct BandedReductionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let source: PixelSize, target: PixelSize
        /// Where the parts after the first start (multiples of 16, as strips do).
        let partStarts: [Int]
        let bandHeight: Int
        var testDescription: String { "\(source.width)x\(source.height) -> \(target.width)x\(target.height), parts at \(partStarts), bands of \(bandHeight)" }
    }

    static let cases: [Case] = [
        // A 4:3 photo's thumbnail, two strips; boxes of 4 rows, one of them across the parts.
        Case(source: PixelSize(width: 640, height: 480), target: PixelSize(width: 160, height: 120), partStarts: [240], bandHeight: 64),
        // Boxes of fractional height across the part boundaries, odd sides everywhere.
        Case(source: PixelSize(width: 1001, height: 777), target: PixelSize(width: 97, height: 53), partStarts: [256, 512], bandHeight: 64),
        // Bands shorter than a box; a box spanning three parts.
        Case(source: PixelSize(width: 333, height: 250), target: PixelSize(width: 31, height: 3), partStarts: [32, 48, 64, 160], bandHeight: 16),
        // Nothing to reduce: the same size.
        Case(source: PixelSize(width: 66, height: 38), target: PixelSize(width: 66, height: 38), partStarts: [16], bandHeight: 16),
        // One pixel from 64x64: the whole image in one box.
        Case(source: PixelSize(width: 64, height: 64), target: PixelSize(width: 1, height: 1), partStarts: [32], bandHeight: 16),
    ]

    /// Each part's bands in order on a thread of its own, the parts at the same time.
    static func reduce(_ source: PlanarImage, _ testCase: Case) throws -> PlanarImage {
        let height = source.size.height
        let bounds = [0] + testCase.partStarts + [height]
        let parts = zip(bounds, bounds.dropFirst()).map { $0..<$1 }
        let reduction = try #require(try BandedReduction(from: source.size, to: testCase.target, parts: parts))
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            var row = parts[index].lowerBound
            while row < parts[index].upperBound {
                let end = min(parts[index].upperBound, row + testCase.bandHeight)
                reduction.add(rows: row..<end, of: source)
                row = end
            }
        }
        return reduction.finish()
    }

    /// The rounded mean of each box, with boxes split at ⌊i·source/target⌋.
    static func expected(_ source: PlanarImage, plane: Int, target: PixelSize) -> [UInt8] {
        let from = source.size(ofPlane: plane), stride = source.stride(ofPlane: plane)
        let base = source.baseAddress(ofPlane: plane)
        var pixels: [UInt8] = []
        for row in 0..<target.height {
            let rows = (row * from.height / target.height)..<((row + 1) * from.height / target.height)
            for column in 0..<target.width {
                let columns = (column * from.width / target.width)..<((column + 1) * from.width / target.width)
                var total = 0
                for y in rows { for x in columns { total += Int(base[y * stride + x]) } }
                let count = rows.count * columns.count
                pixels.append(UInt8((total + count / 2) / count))
            }
        }
        return pixels
    }

    @Test(arguments: cases)
    func everyPixelIsTheMeanOfItsBox(testCase: Case) throws {
        let source = try PlanarImage(size: testCase.source)
        PlaneRotationTests.fill(source, seed: UInt64(testCase.source.area))
        let reduced = try Self.reduce(source, testCase)
        #expect(reduced.size == testCase.target)
        for plane in 0..<3 {
            let expected = Self.expected(source, plane: plane, target: reduced.size(ofPlane: plane))
            let ours = reduced.packedPlane(plane)
            let first = ours.indices.first { ours[$0] != expected[$0] }
            #expect(first == nil, "plane \(plane): first difference at pixel \(first ?? 0)")
        }
    }

    /// A picture rather than noise, so that a box misplaced by a row or a column would show:
    /// the result is libyuv's box scaling to within rounding (its boxes split at 16.16 fixed point).
    @Test func agreesWithLibyuvsBoxScaling() throws {
        let size = PixelSize(width: 1280, height: 960)
        let source = try PlanarImage(size: size)
        for plane in 0..<3 {
            let planeSize = source.size(ofPlane: plane), stride = source.stride(ofPlane: plane)
            let base = source.baseAddress(ofPlane: plane)
            for y in 0..<planeSize.height {
                for x in 0..<planeSize.width { base[y * stride + x] = UInt8(truncatingIfNeeded: (x * 7 + y * 3) / (plane + 2) + (x / 40 + y / 30) % 2 * 60) }
            }
        }
        let target = PixelSize(width: 160, height: 120)
        let ours = try Self.reduce(source, Case(source: size, target: target, partStarts: [480], bandHeight: 64))
        let libyuv = try source.scaled(to: target)
        for plane in 0..<3 {
            let a = ours.packedPlane(plane), b = libyuv.packedPlane(plane)
            let largest = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(largest <= 2, "plane \(plane): largest difference \(largest)")
        }
    }

    @Test func refusesWhatItCannotDo() throws {
        let parts = [0..<3024]
        // Larger than the source.
        #expect(try BandedReduction(from: PixelSize(width: 100, height: 100), to: PixelSize(width: 101, height: 50), parts: [0..<100]) == nil)
        // A box of 3,024 rows: 16-bit sums would overflow.
        #expect(try BandedReduction(from: PixelSize(width: 4032, height: 3024), to: PixelSize(width: 4, height: 1), parts: parts) == nil)
        #expect(try BandedReduction(from: PixelSize(width: 4032, height: 3024), to: PixelSize(width: 160, height: 120), parts: parts) != nil)
    }
}
