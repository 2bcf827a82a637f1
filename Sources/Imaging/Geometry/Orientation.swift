/// One of the eight ways an image can be turned by quarter turns and mirrored, numbered as the
/// EXIF `Orientation` tag (274) numbers them.
///
/// The value states what a viewer must do to the stored pixels to show them upright. It is an
/// element of the dihedral group of the square, so orientations compose and invert; the algebra
/// below is the single place where photocap reasons about rotation and mirroring.
///
/// Internally each value is a left-right mirror (optional) followed by a clockwise rotation of
/// `quarterTurns` × 90°.
public enum Orientation: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// 1: shown as stored.
    case up = 1
    /// 2: mirrored left-right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top-bottom.
    case downMirrored = 4
    /// 5: transposed (mirror left-right, then rotate 270° clockwise).
    case leftMirrored = 5
    /// 6: rotated 90° clockwise.
    case right = 6
    /// 7: transversed (mirror left-right, then rotate 90° clockwise).
    case rightMirrored = 7
    /// 8: rotated 270° clockwise (90° counter-clockwise).
    case left = 8

    /// The orientation for an EXIF/TIFF tag value; 0 and values above 8 are invalid and read as
    /// ``up``, as viewers do.
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .up
    }

    /// The value for the EXIF and TIFF `Orientation` tags.
    public var exifValue: Int { rawValue }

    /// Creates the transform "mirror left-right if `mirrored`, then rotate clockwise by
    /// `quarterTurns` × 90°". Any integer number of quarter turns is accepted.
    public init(mirrored: Bool, clockwiseQuarterTurns quarterTurns: Int) {
        let turns = ((quarterTurns % 4) + 4) % 4
        switch (mirrored, turns) {
        case (false, 0): self = .up
        case (false, 1): self = .right
        case (false, 2): self = .down
        case (false, _): self = .left
        case (true, 0): self = .upMirrored
        case (true, 1): self = .rightMirrored
        case (true, 2): self = .downMirrored
        case (true, _): self = .leftMirrored
        }
    }

    /// A pure clockwise rotation by `degrees`, which must be a multiple of 90 (any sign).
    public init?(clockwiseDegrees degrees: Int) {
        guard degrees % 90 == 0 else { return nil }
        self = .clockwise(degrees: degrees)
    }

    /// A pure clockwise rotation by `degrees` (any sign; negative is counter-clockwise): the one
    /// conversion from degrees. A remainder past a multiple of 90 is dropped: the callers have
    /// checked their angles (settings, sensor mountings) before.
    package static func clockwise(degrees: Int) -> Orientation {
        Orientation(mirrored: false, clockwiseQuarterTurns: degrees / 90)
    }

    /// `degrees` as the same angle in 0..<360 (−90 is 270, 450 is 90): the one normalisation of
    /// rotation angles, device and sensor alike.
    public static func normalizedDegrees(_ degrees: Int) -> Int { ((degrees % 360) + 360) % 360 }

    /// Whether the transform includes a mirror (EXIF 2, 4, 5, 7).
    public var isMirrored: Bool {
        switch self {
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: return true
        default: return false
        }
    }

    /// Clockwise quarter turns applied after the optional left-right mirror (0...3).
    public var clockwiseQuarterTurns: Int {
        switch self {
        case .up, .upMirrored: return 0
        case .right, .rightMirrored: return 1
        case .down, .downMirrored: return 2
        case .left, .leftMirrored: return 3
        }
    }

    /// The clockwise rotation applied after the optional mirror, in degrees (0, 90, 180 or 270):
    /// the inverse of ``init(clockwiseDegrees:)`` for a pure rotation.
    public var clockwiseDegrees: Int { clockwiseQuarterTurns * 90 }

    /// Whether the transform runs the picture's columns (`x`) backwards: a partial block at
    /// its right edge then lands at the start of a row or column of the result.
    public var reversesColumns: Bool { reverses(along: (1, 0)) }

    /// Whether the transform runs the picture's rows (`y`) backwards.
    public var reversesRows: Bool { reverses(along: (0, 1)) }

    private func reverses(along step: (x: Int, y: Int)) -> Bool {
        let square = PixelSize(width: 2, height: 2)
        let (from, to) = (apply(toPoint: (0, 0), in: square), apply(toPoint: step, in: square))
        return (to.x - from.x) + (to.y - from.y) < 0
    }

    /// Whether the transform swaps width and height (EXIF 5–8).
    public var swapsDimensions: Bool { clockwiseQuarterTurns % 2 == 1 }

    /// The transform that applies `self` first and then `next`.
    ///
    /// A rotation after a mirror equals the mirror after the opposite rotation, which is why the
    /// quarter turns of `self` change sign when `next` mirrors.
    public func followed(by next: Orientation) -> Orientation {
        let turns = next.clockwiseQuarterTurns
            + (next.isMirrored ? -clockwiseQuarterTurns : clockwiseQuarterTurns)
        return Orientation(mirrored: isMirrored != next.isMirrored, clockwiseQuarterTurns: turns)
    }

    /// The transform that undoes this one: `o.followed(by: o.inverse) == .up`.
    public var inverse: Orientation {
        // Every mirrored element is a reflection, which is its own inverse.
        isMirrored ? self : Orientation(mirrored: false, clockwiseQuarterTurns: -clockwiseQuarterTurns)
    }

    /// The size of an image of `size` after this transform.
    public func apply(to size: PixelSize) -> PixelSize {
        swapsDimensions ? size.transposed : size
    }

    /// Where the pixel at (`x`, `y`) of an image of `size` lands after this transform.
    public func apply(toPoint point: (x: Int, y: Int), in size: PixelSize) -> (x: Int, y: Int) {
        var x = isMirrored ? size.width - 1 - point.x : point.x
        var y = point.y
        var current = size
        for _ in 0..<clockwiseQuarterTurns {
            // One clockwise quarter turn: (x, y) → (H−1−y, x).
            (x, y) = (current.height - 1 - y, x)
            current = current.transposed
        }
        return (x, y)
    }

    /// The EXIF name, for messages and `photocap info`.
    public var description: String {
        switch self {
        case .up: return "1 (normal)"
        case .upMirrored: return "2 (mirror horizontal)"
        case .down: return "3 (rotate 180)"
        case .downMirrored: return "4 (mirror vertical)"
        case .leftMirrored: return "5 (mirror horizontal and rotate 270 CW)"
        case .right: return "6 (rotate 90 CW)"
        case .rightMirrored: return "7 (mirror horizontal and rotate 90 CW)"
        case .left: return "8 (rotate 270 CW)"
        }
    }
}
