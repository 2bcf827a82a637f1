import Imaging
import Testing

/// The eight EXIF orientations, checked against hand-written tables rather than against the
/// algebra itself.
@Suite struct OrientationTests {
    /// A 3x2 image with labelled pixels:
    ///
    ///     a b c
    ///     d e f
    ///
    /// and what a viewer shows for each EXIF value (from the EXIF 2.32 definitions: 2 mirrors
    /// left-right, 3 turns 180°, 4 mirrors top-bottom, 5 transposes, 6 turns 90° clockwise,
    /// 7 transverses, 8 turns 90° counter-clockwise).
    static let shown: [Int: [String]] = [
        1: ["abc", "def"],
        2: ["cba", "fed"],
        3: ["fed", "cba"],
        4: ["def", "abc"],
        5: ["ad", "be", "cf"],
        6: ["da", "eb", "fc"],
        7: ["fc", "eb", "da"],
        8: ["cf", "be", "ad"],
    ]

    static func render(_ orientation: Orientation) -> [String] {
        let size = PixelSize(width: 3, height: 2)
        let labels = Array("abcdef")
        let out = orientation.apply(to: size)
        var grid = Array(repeating: Array(repeating: Character("?"), count: out.width), count: out.height)
        for y in 0..<2 {
            for x in 0..<3 {
                let p = orientation.apply(toPoint: (x, y), in: size)
                grid[p.y][p.x] = labels[y * 3 + x]
            }
        }
        return grid.map { String($0) }
    }

    @Test(arguments: Orientation.allCases)
    func pointMappingMatchesTheEXIFDefinition(_ orientation: Orientation) {
        #expect(Self.render(orientation) == Self.shown[orientation.exifValue])
    }

    @Test(arguments: Orientation.allCases)
    func rgbTransformMatchesPointMapping(_ orientation: Orientation) {
        let size = PixelSize(width: 3, height: 2)
        var pixels: [UInt8] = []
        for index in 0..<6 {
            let base = UInt8(index * 10)
            pixels += [base, base + 1, base + 2]
        }
        let image = RGBImage(size: size, pixels: pixels).transformed(by: orientation)
        let expected = Self.shown[orientation.exifValue]!.joined()
        let labels = Array("abcdef")
        let actual = stride(from: 0, to: image.pixels.count, by: 3).map { labels[Int(image.pixels[$0]) / 10] }
        #expect(String(actual) == expected)
    }

    @Test func invalidValuesReadAsUp() {
        #expect(Orientation(exifValue: 0) == .up)
        #expect(Orientation(exifValue: 9) == .up)
        #expect(Orientation(exifValue: -1) == .up)
        #expect(Orientation(exifValue: 65535) == .up)
    }

    /// Which transforms run columns or rows backwards, as libjpeg-turbo's `TJXOPT_PERFECT` lists
    /// them: the width must fill whole iMCUs for a horizontal flip, 180°, transverse and 270°
    /// (EXIF 2, 3, 7, 8), the height for a vertical flip, 180°, transverse and 90° (4, 3, 7, 6).
    @Test func reversedColumnsAndRowsAreTurboJPEGsPartialBlockCases() {
        #expect(Orientation.allCases.filter(\.reversesColumns).map(\.exifValue).sorted() == [2, 3, 7, 8])
        #expect(Orientation.allCases.filter(\.reversesRows).map(\.exifValue).sorted() == [3, 4, 6, 7])
        #expect(Orientation.allCases.map(\.clockwiseDegrees) == Orientation.allCases.map { $0.clockwiseQuarterTurns * 90 })
        #expect([0, 90, 180, 270].map { Orientation(clockwiseDegrees: $0)!.clockwiseDegrees } == [0, 90, 180, 270])
    }

    @Test func mirroredValuesAreTwoFourFiveSeven() {
        #expect(Orientation.allCases.filter(\.isMirrored).map(\.exifValue) == [2, 4, 5, 7])
        #expect(Orientation.allCases.filter(\.swapsDimensions).map(\.exifValue) == [5, 6, 7, 8])
    }

    /// Composition must agree with applying one transform after the other, for all 64 pairs.
    @Test(arguments: Orientation.allCases)
    func compositionAgreesWithSuccessiveApplication(_ first: Orientation) {
        for second in Orientation.allCases {
            let composed = Self.render(first.followed(by: second))
            // Apply `first`, then `second` to the result.
            let size = PixelSize(width: 3, height: 2)
            let mid = first.apply(to: size)
            var grid = Array(repeating: Array(repeating: Character("?"), count: second.apply(to: mid).width),
                             count: second.apply(to: mid).height)
            let labels = Array("abcdef")
            for y in 0..<2 {
                for x in 0..<3 {
                    let p1 = first.apply(toPoint: (x, y), in: size)
                    let p2 = second.apply(toPoint: p1, in: mid)
                    grid[p2.y][p2.x] = labels[y * 3 + x]
                }
            }
            #expect(composed == grid.map { String($0) }, "\(first) then \(second)")
        }
    }

    @Test(arguments: Orientation.allCases)
    func inverseUndoes(_ orientation: Orientation) {
        #expect(orientation.followed(by: orientation.inverse) == .up)
        #expect(orientation.inverse.followed(by: orientation) == .up)
    }

    @Test func namedCompositions() {
        // Two quarter turns clockwise are a half turn; mirror then half turn is a vertical flip.
        #expect(Orientation.right.followed(by: .right) == .down)
        #expect(Orientation.upMirrored.followed(by: .down) == .downMirrored)
        // Transpose is mirror then 270° clockwise; transverse is mirror then 90° clockwise.
        #expect(Orientation.upMirrored.followed(by: .left) == .leftMirrored)
        #expect(Orientation.upMirrored.followed(by: .right) == .rightMirrored)
        #expect(Orientation(mirrored: false, clockwiseQuarterTurns: -1) == .left)
        #expect(Orientation(clockwiseDegrees: 270) == .left)
        #expect(Orientation(clockwiseDegrees: 45) == nil)
    }

    @Test func sizes() {
        let size = PixelSize(width: 1000, height: 750)
        #expect(Orientation.right.apply(to: size) == PixelSize(width: 750, height: 1000))
        #expect(Orientation.downMirrored.apply(to: size) == size)
        #expect(PixelSize(width: 4032, height: 3024).aspectFit(within: PixelSize(width: 320, height: 240))
                == PixelSize(width: 320, height: 240))
        #expect(PixelSize(width: 1000, height: 750).aspectFit(within: PixelSize(width: 160, height: 160))
                == PixelSize(width: 160, height: 120))
        #expect(PixelSize(width: 750, height: 1000).aspectFit(within: PixelSize(width: 320, height: 240))
                == PixelSize(width: 180, height: 240))
        #expect(PixelSize(parsing: "320x240") == PixelSize(width: 320, height: 240))
        #expect(PixelSize(parsing: "320x") == nil)
        #expect(PixelSize(parsing: "0x10") == nil)
    }
}
