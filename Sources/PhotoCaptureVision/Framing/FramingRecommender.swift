import PhotoCapture

/// Chooses a framing for the people in view and holds it steady: the algorithm of the smart
/// framing monitor, as pure logic driven by time-stamped tracked faces.
///
/// Each face is widened to a head-and-shoulders box and the people box holds them all. Among the
/// enabled framings (each a centred crop of the upright picture) the tightest one holding the
/// people box with a margin wins, else the one covering most of it; with nobody in view for
/// ``emptyAfter`` the widest wins. Hysteresis keeps it from flapping: the current framing stays
/// while it holds the box with half the margin, a tighter one must hold it with 1.3 times the
/// margin, a new choice must persist (``zoomOutHold``, longer ``zoomInHold``) before it is
/// recommended, and changes are at least ``minimumInterval`` apart.
public struct FramingRecommender: Sendable {
    /// The framings it may recommend, in the caller's order (the first wins ties).
    public let enabledFramings: [Framing]
    /// The upright picture's size (the whole frame turned upright, before any crop).
    public let uprightSize: PixelSize
    /// Free space around the people box, as a fraction of the crop's width and height.
    public var margin = 0.05
    /// Seconds a wider framing must stay the choice before it is recommended.
    public var zoomOutHold = 0.3
    /// Seconds a tighter framing must stay the choice before it is recommended.
    public var zoomInHold = 0.6
    /// Least seconds between two recommendations.
    public var minimumInterval = 1.0
    /// Seconds with nobody in view before the widest framing is recommended.
    public var emptyAfter = 0.6

    /// The framing recommended now; nil before the first update.
    public private(set) var recommended: Framing?
    private var pending: (framing: Framing, since: Double)?
    private var lastChange = -Double.infinity
    private var lastPersonSeen = -Double.infinity

    /// A recommender over `enabledFramings` (at least one) for an upright picture of `uprightSize`.
    public init(enabledFramings: [Framing], uprightSize: PixelSize) {
        precondition(!enabledFramings.isEmpty, "a recommender needs at least one framing")
        (self.enabledFramings, self.uprightSize) = (enabledFramings, uprightSize)
    }

    /// The head-and-shoulders box of a face: 2.2 face widths wide, from half a face above the
    /// face to one and a half below it, clipped to the picture.
    public static func headAndShoulders(_ face: NormalizedRect) -> NormalizedRect {
        NormalizedRect(x: face.x - 0.6 * face.width, y: face.y - 0.5 * face.height,
                       width: 2.2 * face.width, height: 3 * face.height).intersection(.whole)
    }

    /// The widest enabled framing: the one keeping the most of the picture.
    public var widest: Framing {
        enabledFramings.max { area(of: $0) < area(of: $1) } ?? enabledFramings[0]
    }

    /// Feeds the faces tracked at `time` (normalised to the upright picture) and returns the new
    /// recommendation when it changed, nil otherwise.
    public mutating func update(faces: [NormalizedRect], at time: Double) -> Framing? {
        let choice: Framing
        if faces.isEmpty {
            // A missed detection is not an empty room: wait, then go wide at once.
            guard time - lastPersonSeen >= emptyAfter || recommended == nil else { return nil }
            choice = widest
        } else {
            lastPersonSeen = time
            choice = preferred(for: faces.map(Self.headAndShoulders).dropFirst().reduce(Self.headAndShoulders(faces[0])) { $0.union($1) })
        }
        // The first recommendation is a start, not a change: it does not delay the next one.
        guard let current = recommended else { return commit(choice, at: -Double.infinity) }
        guard choice != current else {
            pending = nil
            return nil
        }
        if pending?.framing != choice { pending = (choice, time) }
        let hold = faces.isEmpty ? 0 : (area(of: choice) > area(of: current) ? zoomOutHold : zoomInHold)
        guard let since = pending?.since, time - since >= hold, time - lastChange >= minimumInterval else { return nil }
        return commit(choice, at: time)
    }

    /// The framing the people box asks for, with the fill hysteresis around the current one.
    func preferred(for people: NormalizedRect) -> Framing {
        let byArea = enabledFramings.enumerated().sorted { (area(of: $0.element), $0.offset) < (area(of: $1.element), $1.offset) }
            .map(\.element)
        if let current = recommended, holds(current, people, margin: margin / 2) {
            return byArea.first { area(of: $0) < area(of: current) && holds($0, people, margin: margin * 1.3) } ?? current
        }
        if let tightest = byArea.first(where: { holds($0, people, margin: margin) }) { return tightest }
        // Nothing holds everyone: the framing that shows the most of them (the wider on ties).
        return byArea.reversed().max { covered(by: $0, people) < covered(by: $1, people) } ?? widest
    }

    private mutating func commit(_ framing: Framing, at time: Double) -> Framing {
        (recommended, pending, lastChange) = (framing, nil, time)
        return framing
    }

    private func area(of framing: Framing) -> Double { framing.crop(inUpright: uprightSize).area }

    private func holds(_ framing: Framing, _ people: NormalizedRect, margin: Double) -> Bool {
        let crop = framing.crop(inUpright: uprightSize)
        let inset = NormalizedRect(x: crop.x + margin * crop.width, y: crop.y + margin * crop.height,
                                   width: crop.width * (1 - 2 * margin), height: crop.height * (1 - 2 * margin))
        return insetAllowingEdges(crop, inset).contains(people)
    }

    private func insetAllowingEdges(_ crop: NormalizedRect, _ inset: NormalizedRect) -> NormalizedRect {
        // Where the crop touches the picture's edge, people may reach it (their box is clipped there).
        let left = crop.x <= 1e-9 ? 0 : inset.x, top = crop.y <= 1e-9 ? 0 : inset.y
        let right = crop.maxX >= 1 - 1e-9 ? 1 : inset.maxX, bottom = crop.maxY >= 1 - 1e-9 ? 1 : inset.maxY
        return NormalizedRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    private func covered(by framing: Framing, _ people: NormalizedRect) -> Double {
        people.area > 0 ? framing.crop(inUpright: uprightSize).intersection(people).area / people.area : 0
    }
}
