import Imaging

/// The picture the synthetic camera sees, upright: four differently coloured quadrants and a
/// white "F", so that any rotation or mirror of it is visibly wrong.
///
/// Deterministic for a given size; tests use it as the upright reference.
public enum SyntheticScene {
    /// Top-left quadrant (red).
    public static let topLeft: (UInt8, UInt8, UInt8) = (220, 40, 40)
    /// Top-right quadrant (green).
    public static let topRight: (UInt8, UInt8, UInt8) = (40, 190, 60)
    /// Bottom-left quadrant (blue).
    public static let bottomLeft: (UInt8, UInt8, UInt8) = (40, 70, 220)
    /// Bottom-right quadrant (yellow).
    public static let bottomRight: (UInt8, UInt8, UInt8) = (230, 210, 40)
    /// The glyph (white).
    public static let glyph: (UInt8, UInt8, UInt8) = (245, 245, 245)

    /// The scene rendered at `size`.
    public static func image(size: PixelSize) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: size.area * 3)
        let (w, h) = (size.width, size.height)
        // Edges on even pixels keep 4:2:0 chroma exact.
        func even(_ value: Int) -> Int { value & ~1 }
        pixels.withUnsafeMutableBufferPointer { buffer in
            func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ colour: (UInt8, UInt8, UInt8)) {
                guard x1 > x0 else { return }
                for y in max(0, y0)..<min(h, y1) {
                    var i = (y * w + x0) * 3
                    for _ in x0..<x1 {
                        buffer[i] = colour.0; buffer[i + 1] = colour.1; buffer[i + 2] = colour.2
                        i += 3
                    }
                }
            }
            let (midX, midY) = (even(w / 2), even(h / 2))
            fill(0, 0, midX, midY, topLeft)
            fill(midX, 0, w, midY, topRight)
            fill(0, midY, midX, h, bottomLeft)
            fill(midX, midY, w, h, bottomRight)
            // The "F": a stem and two arms, left of centre, reading correctly only when upright.
            let (left, top, bottom) = (even(w * 15 / 100), even(h * 20 / 100), even(h * 80 / 100))
            let stem = max(2, even(w * 6 / 100)), arm = max(2, even(h * 8 / 100))
            fill(left, top, left + stem, bottom, glyph)
            fill(left, top, even(w * 40 / 100), top + arm, glyph)
            fill(left, even(h * 46 / 100), even(w * 32 / 100), even(h * 46 / 100) + arm, glyph)
        }
        return RGBImage(size: size, pixels: pixels)
    }
}
