import PhotoCaptureVision
import Testing

/// The normalised-rectangle rule checked against the pixel rule of the orientation algebra
/// (itself checked against third-party images), for all eight orientations.
@Suite struct NormalizedRectOrientationTests {
    static let size = PixelSize(width: 40, height: 30)
    static let rect = PixelRect(x: 3, y: 5, size: PixelSize(width: 10, height: 7))

    /// The bounding box of the rectangle's pixels after `orientation`, by moving every pixel.
    static func movedPixels(_ orientation: Orientation) -> PixelRect {
        var xs: [Int] = [], ys: [Int] = []
        for y in rect.y..<rect.y + rect.size.height {
            for x in rect.x..<rect.x + rect.size.width {
                let moved = orientation.apply(toPoint: (x, y), in: size)
                xs.append(moved.x); ys.append(moved.y)
            }
        }
        return PixelRect(x: xs.min()!, y: ys.min()!, size: PixelSize(width: xs.max()! - xs.min()! + 1, height: ys.max()! - ys.min()! + 1))
    }

    @Test(arguments: Orientation.allCases)
    func agreesWithThePixelRule(orientation: Orientation) {
        let moved = orientation.apply(toNormalized: NormalizedRect(Self.rect, in: Self.size))
        let expected = NormalizedRect(Self.movedPixels(orientation), in: orientation.apply(to: Self.size))
        #expect(abs(moved.x - expected.x) < 1e-12 && abs(moved.y - expected.y) < 1e-12, "\(moved) vs \(expected)")
        #expect(abs(moved.width - expected.width) < 1e-12 && abs(moved.height - expected.height) < 1e-12)
    }

    @Test(arguments: Orientation.allCases)
    func theInverseBringsItBack(orientation: Orientation) {
        let rect = NormalizedRect(x: 0.1, y: 0.2, width: 0.3, height: 0.25)
        let back = orientation.inverse.apply(toNormalized: orientation.apply(toNormalized: rect))
        #expect(abs(back.x - rect.x) < 1e-12 && abs(back.y - rect.y) < 1e-12
                && abs(back.width - rect.width) < 1e-12 && abs(back.height - rect.height) < 1e-12)
    }

    @Test func cropsAndPixels() {
        let crop = NormalizedRect(x: 0.25, y: 0, width: 0.5, height: 1)
        let face = NormalizedRect(x: 0.4, y: 0.2, width: 0.1, height: 0.2)
        let inCrop = face.relative(to: crop)
        func close(_ a: NormalizedRect, _ b: NormalizedRect) -> Bool {
            abs(a.x - b.x) < 1e-12 && abs(a.y - b.y) < 1e-12 && abs(a.width - b.width) < 1e-12 && abs(a.height - b.height) < 1e-12
        }
        #expect(close(inCrop, NormalizedRect(x: 0.3, y: 0.2, width: 0.2, height: 0.2)))
        #expect(close(inCrop.absolute(in: crop), face))
        #expect(inCrop.pixelRect(in: PixelSize(width: 300, height: 400)) == PixelRect(x: 90, y: 80, size: PixelSize(width: 60, height: 80)))
    }
}
