import PhotoCapture

/// An RGB picture to draw rectangle outlines and numbers on, clipped to its edges: how
/// `watch --overlay` marks its preview. Plain loops: a preview is small and drawn once a second.
struct RGBCanvas {
    /// An 8-bit RGB colour.
    struct Colour: Equatable {
        let r: UInt8, g: UInt8, b: UInt8
    }

    /// The picture drawn so far.
    private(set) var image: RGBImage

    /// A canvas starting as `image`.
    init(_ image: RGBImage) {
        self.image = image
    }

    /// The colour at (`x`, `y`).
    func colour(x: Int, y: Int) -> Colour {
        let pixel = image.pixel(x: x, y: y)
        return Colour(r: pixel.r, g: pixel.g, b: pixel.b)
    }

    /// Fills `rect`, clipped to the picture.
    mutating func fill(_ rect: PixelRect, colour: Colour) {
        let (width, height) = (image.size.width, image.size.height)
        let left = max(0, rect.x), right = min(width, rect.x + rect.size.width)
        let top = max(0, rect.y), bottom = min(height, rect.y + rect.size.height)
        guard left < right, top < bottom else { return }
        for y in top..<bottom {
            for x in left..<right {
                let i = (y * width + x) * 3
                (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) = (colour.r, colour.g, colour.b)
            }
        }
    }

    /// Draws the outline of `rect`: `lineWidth` pixels thick, inside its edges (so the outline
    /// never covers what lies outside the rectangle), clipped to the picture.
    mutating func strokeRectangle(_ rect: PixelRect, lineWidth: Int, colour: Colour) {
        let (w, h) = (rect.size.width, rect.size.height)
        guard w > 0, h > 0 else { return }
        let line = max(1, lineWidth)
        let (across, down) = (min(line, h), min(line, w))
        fill(PixelRect(x: rect.x, y: rect.y, size: PixelSize(width: w, height: across)), colour: colour)
        fill(PixelRect(x: rect.x, y: rect.y + h - across, size: PixelSize(width: w, height: across)), colour: colour)
        fill(PixelRect(x: rect.x, y: rect.y, size: PixelSize(width: down, height: h)), colour: colour)
        fill(PixelRect(x: rect.x + w - down, y: rect.y, size: PixelSize(width: down, height: h)), colour: colour)
    }

    /// The size `number` takes when drawn at `scale`: 3x5 cells a digit, one cell between digits.
    static func numberSize(_ number: Int, scale: Int) -> PixelSize {
        let digits = String(abs(number)).count
        return PixelSize(width: (digits * 4 - 1) * scale, height: 5 * scale)
    }

    /// Draws the decimal digits of `number` (its magnitude) with their top-left corner at
    /// (`x`, `y`), each cell of the 3x5 font `scale` pixels square.
    mutating func drawNumber(_ number: Int, x: Int, y: Int, scale: Int, colour: Colour) {
        let scale = max(1, scale)
        for (index, digit) in String(abs(number)).compactMap(\.wholeNumberValue).enumerated() {
            let glyph = Self.digits[digit]
            for row in 0..<5 {
                for column in 0..<3 where glyph & (1 << (14 - row * 3 - column)) != 0 {
                    fill(PixelRect(x: x + (index * 4 + column) * scale, y: y + row * scale,
                                   size: PixelSize(width: scale, height: scale)), colour: colour)
                }
            }
        }
    }

    /// The digits 0–9 as 3x5 bitmaps: five rows of three bits, top row and left column in the
    /// high bits.
    private static let digits: [Int] = [
        0b111_101_101_101_111, 0b010_110_010_010_111, 0b111_001_111_100_111, 0b111_001_111_001_111,
        0b101_101_111_001_001, 0b111_100_111_001_111, 0b111_100_111_101_111, 0b111_001_001_001_001,
        0b111_101_111_101_111, 0b111_101_111_001_111,
    ]
}
