/// A rectangle in coordinates normalised to a picture: origin at the top-left corner, x to the
/// right, y down, the whole picture from 0 to 1 on both axes.
///
/// Faces and framings are reported this way (like Apple's metadata objects), so they hold for
/// any resolution; ``Orientation/apply(toNormalized:)`` moves one between the sensor's frame and
/// the upright picture.
public struct NormalizedRect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge, 0 at the picture's left.
    public var x: Double
    /// Top edge, 0 at the picture's top.
    public var y: Double
    /// Width, as a fraction of the picture's width.
    public var width: Double
    /// Height, as a fraction of the picture's height.
    public var height: Double

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The rectangle a pixel rectangle covers in a picture of `size`.
    public init(_ rect: PixelRect, in size: PixelSize) {
        let (w, h) = (Double(size.width), Double(size.height))
        self.init(x: Double(rect.x) / w, y: Double(rect.y) / h,
                  width: Double(rect.size.width) / w, height: Double(rect.size.height) / h)
    }

    /// The whole picture.
    public static let whole = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    /// Right edge.
    public var maxX: Double { x + width }
    /// Bottom edge.
    public var maxY: Double { y + height }
    /// Centre, horizontally.
    public var midX: Double { x + width / 2 }
    /// Centre, vertically.
    public var midY: Double { y + height / 2 }
    /// Width × height.
    public var area: Double { max(0, width) * max(0, height) }

    /// The overlap with `other`; empty (zero area) when they do not meet.
    public func intersection(_ other: NormalizedRect) -> NormalizedRect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return NormalizedRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// The smallest rectangle holding this one and `other`.
    public func union(_ other: NormalizedRect) -> NormalizedRect {
        let left = min(x, other.x), top = min(y, other.y)
        return NormalizedRect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// Overlap area over union area (0 when apart, 1 when equal): how trackers match boxes.
    public func intersectionOverUnion(_ other: NormalizedRect) -> Double {
        let overlap = intersection(other).area
        let total = area + other.area - overlap
        return total > 0 ? overlap / total : 0
    }

    /// Whether `other` lies inside this rectangle (within `tolerance`).
    public func contains(_ other: NormalizedRect, tolerance: Double = 1e-9) -> Bool {
        other.x >= x - tolerance && other.y >= y - tolerance
            && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }

    /// The part of the picture inside `frame`, re-normalised to `frame`: where this rectangle
    /// lies in a crop of the picture. It may reach outside 0...1 when it leaves the crop.
    public func relative(to frame: NormalizedRect) -> NormalizedRect {
        NormalizedRect(x: (x - frame.x) / frame.width, y: (y - frame.y) / frame.height,
                       width: width / frame.width, height: height / frame.height)
    }

    /// The inverse of ``relative(to:)``: a rectangle normalised to the crop `frame`, in the
    /// coordinates of the whole picture.
    public func absolute(in frame: NormalizedRect) -> NormalizedRect {
        NormalizedRect(x: frame.x + x * frame.width, y: frame.y + y * frame.height,
                       width: width * frame.width, height: height * frame.height)
    }

    /// The pixels this rectangle covers in a picture of `size`, rounded outwards and clipped to
    /// the picture.
    public func pixelRect(in size: PixelSize) -> PixelRect {
        let (w, h) = (Double(size.width), Double(size.height))
        let left = max(0, min(size.width, Int((x * w).rounded(.down))))
        let top = max(0, min(size.height, Int((y * h).rounded(.down))))
        let right = max(left, min(size.width, Int((maxX * w).rounded(.up))))
        let bottom = max(top, min(size.height, Int((maxY * h).rounded(.up))))
        return PixelRect(x: left, y: top, size: PixelSize(width: right - left, height: bottom - top))
    }

    /// `x,y widthxheight` with three decimals.
    public var description: String {
        func f(_ v: Double) -> String { String((v * 1000).rounded() / 1000) }
        return "(\(f(x)), \(f(y))) \(f(width))x\(f(height))"
    }
}

extension Orientation {
    /// Where a rectangle normalised to a picture lands, normalised to the picture after this
    /// transform: the same rule as ``apply(toPoint:in:)``, for continuous coordinates.
    public func apply(toNormalized rect: NormalizedRect) -> NormalizedRect {
        var result = rect
        if isMirrored { result.x = 1 - rect.x - rect.width }
        for _ in 0..<clockwiseQuarterTurns {
            // One clockwise quarter turn: the left edge becomes the top, the bottom the left.
            result = NormalizedRect(x: 1 - result.y - result.height, y: result.x,
                                    width: result.height, height: result.width)
        }
        return result
    }
}
