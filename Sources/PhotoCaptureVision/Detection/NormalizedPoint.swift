import Imaging

/// A point in coordinates normalised to a picture, like `NormalizedRect`: origin at the top-left
/// corner, x to the right, y down, the whole picture from 0 to 1 on both axes.
public struct NormalizedPoint: Hashable, Sendable, CustomStringConvertible {
    /// 0 at the picture's left edge, 1 at its right.
    public var x: Double
    /// 0 at the picture's top edge, 1 at its bottom.
    public var y: Double

    /// A point at `x`, `y`.
    public init(x: Double, y: Double) {
        (self.x, self.y) = (x, y)
    }

    /// Whether the point lies in `rect` (edges included).
    public func isInside(_ rect: NormalizedRect) -> Bool {
        (rect.x...rect.maxX).contains(x) && (rect.y...rect.maxY).contains(y)
    }

    /// `(0.42, 0.31)`, to three decimals.
    public var description: String {
        func f(_ v: Double) -> String { String((v * 1000).rounded() / 1000) }
        return "(\(f(x)), \(f(y)))"
    }
}
