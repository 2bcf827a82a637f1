import Imaging
import Testing

/// The one-pass converter against a per-pixel reference (``RGBImage/transformed(by:)``, itself
/// pinned to the EXIF tables in ``OrientationTests``), for every frame format and orientation.
@Suite struct FrameConverterTests {
    /// 8x8 blocks of distinct flat colours: chroma subsampling is exact inside blocks, and no
    /// two quadrants match, so a wrong rotation or mirror shows as a large difference.
    static func scene(_ size: PixelSize) -> RGBImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(size.area * 3)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let bx = x / 8, by = y / 8
                pixels += [UInt8((bx * 37 + by * 11) % 200 + 30), UInt8((by * 53 + bx * 7) % 200 + 30),
                           UInt8(((bx ^ by) * 29) % 200 + 30)]
            }
        }
        return RGBImage(size: size, pixels: pixels)
    }

    // Limited-range quantisation plus 4:2:0 round trips cost about one level per sample on flat
    // blocks (measured ≤ 1.2); a wrong transform costs > 30.
    static let tolerance = 2.5

    // Bilinear demosaic is exact inside flat blocks but blends the two colours along block
    // edges (about a quarter of the pixels of 8x8 blocks): measured 5.2 for every order and depth.
    static let bayerTolerance = 8.0

    @Test(arguments: FramePixelFormat.allCases.filter { !$0.isCompressed })
    func everyOrientationMatchesTheReference(_ format: FramePixelFormat) throws {
        let size = PixelSize(width: 48, height: 40)
        let scene = Self.scene(size)
        let frame = try FrameBuilder.frame(from: scene, format: format)
        // A strip height that does not divide the height exercises the last, short strip.
        let converter = FrameConverter(stripHeight: 6)
        for orientation in Orientation.allCases {
            let output = try converter.convert(frame, applying: orientation)
            #expect(output.size == orientation.apply(to: size))
            var expected = scene.transformed(by: orientation)
            if format == .grey {
                expected = try RGBImage(size: expected.size, pixels: expected.pixels).greyscaleReference()
            }
            let difference = try output.rgbImage().meanAbsoluteDifference(to: expected)
            #expect(difference <= (format.isBayer ? Self.bayerTolerance : Self.tolerance),
                    "\(format) \(orientation): \(difference)")
            // The wrong answer must be far: compare with the unrotated/unmirrored scene too.
            if orientation != .up, orientation.apply(to: size) == size {
                let wrong = try output.rgbImage().meanAbsoluteDifference(to: format == .grey ? try scene.greyscaleReference() : scene)
                #expect(wrong > 10, "\(format) \(orientation) looks unchanged")
            }
        }
    }

    @Test("converted band by band, in any order, the planes are byte for byte the whole conversion's",
          arguments: FramePixelFormat.allCases.filter { !$0.isCompressed })
    func bandsMatchTheWholeConversion(_ format: FramePixelFormat) throws {
        let size = PixelSize(width: 70, height: 52)
        let frame = try FrameBuilder.frame(from: NoisePicture.picture(size), format: format)
        let crop = PixelRect(x: 4, y: 2, size: PixelSize(width: 58, height: 46))
        // Quarter-turned bands are read in blocks of their own height: one shorter than the
        // quarter-turn strips and the default (both leave a short first block on a clockwise turn).
        for blockHeight in [6, 32] {
            let converter = FrameConverter(stripHeight: 6, quarterTurnStripHeight: 10, quarterTurnBlockHeight: blockHeight)
            for orientation in Orientation.allCases {
                let whole = try converter.convert(frame, crop: crop, applying: orientation)
                let conversion = try converter.prepare(frame, crop: crop, applying: orientation)
                let height = conversion.size.height
                let image = try PlanarImage(size: conversion.size)
                // Uneven bands, the last first: no band depends on another's rows.
                let cuts = [0, 16, 18, 34, height]
                for index in (0..<(cuts.count - 1)).reversed() {
                    try conversion.convert(rows: cuts[index]..<cuts[index + 1], into: image)
                }
                for plane in 0..<3 {
                    let identical = Self.rows(of: image, plane: plane) == Self.rows(of: whole, plane: plane)
                    #expect(identical, "\(format) \(orientation) plane \(plane), blocks of \(blockHeight)")
                }
                // Each band into a buffer of its own (a strip encoder's band buffer, taller than
                // the band): the same rows.
                for index in 0..<(cuts.count - 1) {
                    let rows = cuts[index]..<cuts[index + 1]
                    let buffer = try PlanarImage(size: PixelSize(width: conversion.size.width, height: rows.count + 2))
                    try conversion.convert(rows: rows, into: buffer, firstRow: rows.lowerBound)
                    for plane in 0..<3 {
                        let planeRows = plane == 0 ? rows : (rows.lowerBound / 2)..<((rows.upperBound + 1) / 2)
                        let identical = Array(Self.rows(of: buffer, plane: plane)[0..<planeRows.count])
                            == Array(Self.rows(of: whole, plane: plane)[planeRows])
                        #expect(identical, "\(format) \(orientation) band \(rows) plane \(plane), blocks of \(blockHeight)")
                    }
                }
                // A band outside its buffer is refused.
                #expect(throws: ImagingError.self) {
                    try conversion.convert(rows: 16..<34, into: try PlanarImage(size: PixelSize(width: conversion.size.width, height: 16)),
                                           firstRow: 16)
                }
            }
        }
    }

    @Test("quarter-turned bands in 64-row blocks, turned into whole cache lines kept in cache, are the whole conversion's",
          arguments: [FramePixelFormat.yuyv, .nv12, .rgb24])
    func quarterTurnedBandsInLineBlocksMatchTheWholeConversion(_ format: FramePixelFormat) throws {
        // Crop rows 64 * 4 + 14: a short first block, then blocks whose turned rows start on an
        // aligned line, which is where the line kernel writes (the path a 12 MP photo takes).
        let size = PixelSize(width: 150, height: 280)
        let frame = try FrameBuilder.frame(from: NoisePicture.picture(size), format: format)
        let crop = PixelRect(x: 6, y: 4, size: PixelSize(width: 136, height: 270))
        let converter = FrameConverter(quarterTurnBlockHeight: 64, threads: 2)
        for orientation in [Orientation.right, .left, .rightMirrored, .leftMirrored] {
            let whole = try converter.convert(frame, crop: crop, applying: orientation)
            let conversion = try converter.prepare(frame, crop: crop, applying: orientation)
            let image = try PlanarImage(size: conversion.size)
            // 64-row bands, as the strip encoder asks for them, the last one short.
            for first in stride(from: 0, to: conversion.size.height, by: 64) {
                try conversion.convert(rows: first..<min(first + 64, conversion.size.height), into: image)
            }
            for plane in 0..<3 {
                let identical = Self.rows(of: image, plane: plane) == Self.rows(of: whole, plane: plane)
                #expect(identical, "\(format) \(orientation) plane \(plane)")
            }
        }
    }

    /// A plane's rows without their padding.
    static func rows(of image: PlanarImage, plane: Int) -> [[UInt8]] {
        let base = image.baseAddress(ofPlane: plane), stride = image.stride(ofPlane: plane), size = image.size(ofPlane: plane)
        return (0..<size.height).map { Array(UnsafeBufferPointer(start: base + $0 * stride, count: size.width)) }
    }

    @Test func cropIsAppliedBeforeTheTransformAndMadeEven() throws {
        let scene = Self.scene(PixelSize(width: 64, height: 48))
        let frame = try FrameBuilder.frame(from: scene, format: .nv12)
        let crop = PixelRect(x: 9, y: 5, size: PixelSize(width: 31, height: 21))
        let effective = try FrameConverter.effectiveCrop(crop, frameSize: frame.size)
        #expect(effective == PixelRect(x: 8, y: 4, size: PixelSize(width: 32, height: 22)))
        let output = try FrameConverter().convert(frame, crop: crop, applying: .rightMirrored)
        var cropped = [UInt8]()
        for y in 4..<26 { cropped += scene.pixels[(y * 64 + 8) * 3..<(y * 64 + 40) * 3] }
        let expected = RGBImage(size: PixelSize(width: 32, height: 22), pixels: cropped).transformed(by: .rightMirrored)
        #expect(try output.rgbImage().meanAbsoluteDifference(to: expected) <= Self.tolerance)
    }

    @Test func rejectsACropOutsideTheFrameAndShortFrames() throws {
        let frame = try FrameBuilder.frame(from: Self.scene(PixelSize(width: 16, height: 16)), format: .yuyv)
        #expect(throws: ImagingError.self) {
            try FrameConverter().convert(frame, crop: PixelRect(x: 8, y: 0, size: PixelSize(width: 16, height: 16)))
        }
        #expect(throws: ImagingError.frameTooSmall(expected: 512, actual: 100, format: .yuyv,
                                                   size: PixelSize(width: 16, height: 16))) {
            try Frame(format: .yuyv, size: PixelSize(width: 16, height: 16), storage: FrameStorage(copying: [UInt8](repeating: 0, count: 100)))
        }
    }

    @Test func scalingAveragesAreas() throws {
        // A fine checkerboard must become flat grey, not alias into stripes.
        var pixels = [UInt8]()
        for y in 0..<64 { for x in 0..<64 { pixels += Array(repeating: (x + y) % 2 == 0 ? 255 : 0, count: 3) } }
        let image = try RGBImage(size: PixelSize(width: 64, height: 64), pixels: pixels).planarImage()
        let small = try image.scaled(to: PixelSize(width: 16, height: 16)).rgbImage()
        let values = small.pixels
        #expect(values.min()! >= 120 && values.max()! <= 135)
    }
}

extension RGBImage {
    /// Full-range BT.601 luma in all three channels: what a GREY frame can represent.
    func greyscaleReference() throws -> RGBImage {
        var out = pixels
        for i in stride(from: 0, to: out.count, by: 3) {
            let luma = (0.299 * Double(out[i]) + 0.587 * Double(out[i + 1]) + 0.114 * Double(out[i + 2])).rounded()
            out[i] = UInt8(luma); out[i + 1] = UInt8(luma); out[i + 2] = UInt8(luma)
        }
        return RGBImage(size: size, pixels: out)
    }
}

/// Pixels that differ from their neighbours everywhere, so every sample of a band depends on
/// reading the right source pixels (flat blocks would hide a band read one column off).
enum NoisePicture {
    static func picture(_ size: PixelSize) -> RGBImage {
        var seed: UInt32 = 0x9E37_79B9
        let pixels = (0..<(size.area * 3)).map { _ -> UInt8 in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: seed >> 24)
        }
        return RGBImage(size: size, pixels: pixels)
    }
}

