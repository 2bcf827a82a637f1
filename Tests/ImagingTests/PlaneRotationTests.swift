import Glibc
import Imaging
import Testing

/// Quarter turns of the planes in 16×16 tiles (``PlanarImage/RotationKernel/tiles``), judged byte
/// for byte against libyuv's `I420Rotate` (the independent implementation the conversion pass
/// used before), and the conversion pass's quarter turns against its upright result turned by a
/// plain loop here.
@Suite struct PlaneRotationTests {
    /// Below, at and above one tile; odd sides (odd chroma planes); several bands of four tile
    /// rows; heights of whole 64-row bands (streamed to aligned lines when the block starts on
    /// one); a 12 MP frame and one a pixel short of it on both sides.
    static let sizes: [PixelSize] = [
        (1, 1), (2, 2), (1, 16), (16, 1), (3, 31), (15, 17), (16, 16), (17, 16), (16, 17), (33, 18), (31, 47),
        (32, 32), (47, 33), (64, 64), (65, 63), (100, 37), (129, 130), (250, 97), (16, 128), (33, 128), (201, 256),
        (4032, 3024), (4031, 3023), (4032, 1024),
    ].map { PixelSize(width: $0.0, height: $0.1) }

    /// Deterministic noise in every byte of every plane, stride padding included.
    static func fill(_ image: PlanarImage, seed: UInt64) {
        var state = seed | 1
        for plane in 0..<3 {
            let count = image.stride(ofPlane: plane) * image.size(ofPlane: plane).height
            let base = image.baseAddress(ofPlane: plane)
            for index in 0..<count {
                // xorshift64
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                base[index] = UInt8(truncatingIfNeeded: state >> 24)
            }
        }
    }

    /// Every byte of `plane`, stride padding included.
    static func storage(of image: PlanarImage, plane: Int) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(start: image.baseAddress(ofPlane: plane),
                                   count: image.stride(ofPlane: plane) * image.size(ofPlane: plane).height)
    }

    /// Every byte of `source`'s planes into `target`'s, of the same size.
    static func copy(_ source: PlanarImage, into target: PlanarImage) {
        for plane in 0..<3 {
            let from = storage(of: source, plane: plane), to = storage(of: target, plane: plane)
            precondition(from.count == to.count)
            to.baseAddress!.update(from: from.baseAddress!, count: from.count)
        }
    }

    /// The first byte of `plane`, stride padding included, where `a` and `b` differ: memcmp
    /// first, the byte-by-byte search (slow in a debug build) only when they do.
    static func firstDifference(_ a: PlanarImage, _ b: PlanarImage, plane: Int) -> Int? {
        let ours = storage(of: a, plane: plane), theirs = storage(of: b, plane: plane)
        precondition(ours.count == theirs.count)
        if memcmp(ours.baseAddress!, theirs.baseAddress!, ours.count) == 0 { return nil }
        return ours.indices.first { ours[$0] != theirs[$0] } ?? 0
    }

    @Test(arguments: sizes)
    func tilesMatchLibyuvByteForByte(size: PixelSize) throws {
        let source = try PlanarImage(size: size)
        Self.fill(source, seed: UInt64(size.area))
        // At the corner of a larger image (aligned rows) and inside it: writes beside the block would show.
        // Whole aligned lines are written streamed past the cache, or kept in it.
        let cases = [false, true].flatMap { cached in [1, 3].flatMap { turns in [(x: 0, y: 0), (x: 4, y: 2)].map { (turns, $0, cached) } } }
        // One noise canvas, copied before each case: filling a 12 MP canvas byte by byte in a
        // debug build took most of this test's 91 s.
        let canvas = PixelSize(width: size.height + 7, height: size.width + 5)
        let noise = try PlanarImage(size: canvas)
        Self.fill(noise, seed: 99)
        let tiles = try PlanarImage(size: canvas), libyuv = try PlanarImage(size: canvas)
        for (quarterTurns, origin, keepingInCache) in cases {
            Self.copy(noise, into: tiles)
            Self.copy(noise, into: libyuv)
            try source.rotate(rows: size.height, quarterTurns: quarterTurns, into: tiles, x: origin.x, y: origin.y, kernel: .tiles,
                              keepingInCache: keepingInCache)
            try source.rotate(rows: size.height, quarterTurns: quarterTurns, into: libyuv, x: origin.x, y: origin.y, kernel: .libyuv)
            for plane in 0..<3 {
                let first = Self.firstDifference(tiles, libyuv, plane: plane)
                #expect(first == nil, "\(size) turned \(quarterTurns) at \(origin)\(keepingInCache ? " in cache" : ""), plane \(plane): first difference at byte \(first ?? 0)")
                // Both could have done nothing: the corners must have moved where a turn puts them.
                let from = source.size(ofPlane: plane), stride = source.stride(ofPlane: plane)
                let scale = plane == 0 ? 1 : 2
                let (x, y) = (origin.x / scale, origin.y / scale)
                let out = tiles.baseAddress(ofPlane: plane), outStride = tiles.stride(ofPlane: plane)
                let input = source.baseAddress(ofPlane: plane)
                for (sx, sy) in [(0, 0), (from.width - 1, 0), (0, from.height - 1), (from.width - 1, from.height - 1)] {
                    // 90° clockwise: (sx, sy) → (h − 1 − sy, sx); 270°: (sx, sy) → (sy, w − 1 − sx).
                    let (tx, ty) = quarterTurns == 1 ? (from.height - 1 - sy, sx) : (sy, from.width - 1 - sx)
                    #expect(out[(y + ty) * outStride + x + tx] == input[sy * stride + sx],
                            "\(size) turned \(quarterTurns) at \(origin), plane \(plane): corner (\(sx), \(sy))")
                }
            }
        }
    }

    @Test func refusesABlockOutsideTheOutput() throws {
        let source = try PlanarImage(size: PixelSize(width: 20, height: 10))
        let output = try PlanarImage(size: PixelSize(width: 10, height: 20))
        #expect(throws: ImagingError.self) { try source.rotate(rows: 10, quarterTurns: 1, into: output, x: 2, y: 0) }
        #expect(throws: ImagingError.self) { try source.rotate(rows: 11, quarterTurns: 3, into: output, x: 0, y: 0) }
        #expect(throws: ImagingError.self) { try source.rotate(rows: 4, quarterTurns: 1, into: output, x: 1, y: 0) }
        try source.rotate(rows: 4, quarterTurns: 1, into: output, x: 6, y: 0)
    }

    /// The output of the conversion pass, turned, against its upright output turned here: for
    /// every quarter-turn orientation, strips of several heights (a short first or last strip;
    /// 128 streams whole lines), two threads, and a size that is no multiple of 16 with
    /// odd-height chroma planes.
    @Test(arguments: [6, 32, 64, 128])
    func quarterTurnsOfAFrameMatchTheUprightConversionTurned(stripHeight: Int) throws {
        let size = PixelSize(width: 200, height: 138)
        let scene = RGBImage(size: size, pixels: (0..<size.area * 3).map { UInt8(truncatingIfNeeded: $0 * 37 + $0 / 11) })
        let frame = try FrameBuilder.frame(from: scene, format: .yuyv)
        let converter = FrameConverter(stripHeight: stripHeight, quarterTurnStripHeight: stripHeight, threads: 2)
        let upright = try converter.convert(frame)
        for orientation in [Orientation.right, .left, .rightMirrored, .leftMirrored] {
            let turned = try converter.convert(frame, applying: orientation)
            #expect(turned.size == PixelSize(width: size.height, height: size.width))
            for plane in 0..<3 {
                let from = upright.size(ofPlane: plane)
                let (w, h) = (from.width, from.height)
                let input = upright.baseAddress(ofPlane: plane), inStride = upright.stride(ofPlane: plane)
                let out = turned.baseAddress(ofPlane: plane), outStride = turned.stride(ofPlane: plane)
                var differences = 0
                for ty in 0..<w {
                    for tx in 0..<h {
                        // The source of output pixel (tx, ty), from the EXIF definitions:
                        let (sx, sy) = switch orientation {
                        case .right: (ty, h - 1 - tx)              // 6: rotate 90° clockwise
                        case .left: (w - 1 - ty, tx)               // 8: rotate 270° clockwise
                        case .rightMirrored: (w - 1 - ty, h - 1 - tx)  // 7: mirror, then 90° clockwise
                        default: (ty, tx)                          // 5: mirror, then 270° clockwise (transpose)
                        }
                        if out[ty * outStride + tx] != input[sy * inStride + sx] { differences += 1 }
                    }
                }
                #expect(differences == 0, "\(orientation), strips of \(stripHeight), plane \(plane): \(differences) samples differ")
            }
        }
    }
}
