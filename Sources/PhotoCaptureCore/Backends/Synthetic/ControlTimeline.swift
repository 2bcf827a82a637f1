/// What one control of the synthetic sensor holds frame by frame. A real sensor applies a
/// control some frames after it is written, and a frame shows what was in effect when its
/// exposure started: so each value is kept with the instant after which a starting frame sees
/// it, oldest first (the newest 64).
struct ControlTimeline<Value> {
    private var changes: [(effectiveAfter: UInt64, value: Value)]

    /// A timeline whose frames all see `initial` until the first change.
    init(_ initial: Value) { changes = [(0, initial)] }

    /// The value a frame whose exposure started at `instant` sees; nil at instant 0.
    func value(forExposureStartingAt instant: UInt64) -> Value? {
        changes.last { $0.effectiveAfter < instant }?.value
    }

    /// Records `value` for the frames that start after `instant`.
    mutating func record(_ value: Value, after instant: UInt64) {
        changes.append((instant, value))
        if changes.count > 64 { changes.removeFirst(changes.count - 64) }
    }

    /// Forgets the changes `isForgotten` picks (by the instant each takes effect, and its value).
    mutating func forget(where isForgotten: (_ effectiveAfter: UInt64, _ value: Value) -> Bool) {
        changes.removeAll { isForgotten($0.effectiveAfter, $0.value) }
    }

    /// Brings every change due after `now` forward to `now`: a sensor programmed afresh when its
    /// stream starts applies them from its first frame.
    mutating func bringForward(to now: UInt64) {
        for index in changes.indices where changes[index].effectiveAfter > now { changes[index].effectiveAfter = now }
    }
}
