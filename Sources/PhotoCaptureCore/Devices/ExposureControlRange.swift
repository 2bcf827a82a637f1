/// The values one camera control accepts: a range with a step, or a list of values (a V4L2
/// integer menu). Exposure controls (``ExposureCapabilities``) and the manual lens position
/// (``FocusCapabilities/lensPosition``) use it.
public struct ExposureControlRange: Sendable, Equatable {
    /// The control's name as `photocap controls` spells it (`gain`, `auto_exposure_bias`...).
    public let control: String
    /// The smallest value.
    public let minimum: Double
    /// The largest value.
    public let maximum: Double
    /// The step between values from ``minimum``; 0 for any value.
    public let step: Double
    /// The only values accepted, when the control is a menu.
    public let values: [Double]?

    /// A stepped range.
    public init(control: String, minimum: Double, maximum: Double, step: Double) {
        self.control = control
        self.minimum = min(minimum, maximum)
        self.maximum = max(minimum, maximum)
        self.step = max(0, step)
        values = nil
    }

    /// A menu of values.
    public init(control: String, values: [Double]) {
        let sorted = values.sorted()
        self.control = control
        minimum = sorted.first ?? 0
        maximum = sorted.last ?? 0
        step = 0
        self.values = sorted
    }

    /// The accepted value nearest `value`: clamped to the range, then rounded to the step (or
    /// the nearest menu entry).
    public func nearest(_ value: Double) -> Double {
        if let values, !values.isEmpty {
            return values.min { abs($0 - value) < abs($1 - value) }!
        }
        let clamped = Swift.min(Swift.max(value, minimum), maximum)
        guard step > 0 else { return clamped }
        let snapped = Swift.min(minimum + ((clamped - minimum) / step).rounded() * step, maximum)
        // Kept to a billionth, so steps of 100 µs give 0.0025, not 0.0025000000000000005.
        return (snapped * 1e9).rounded() / 1e9
    }

    /// Whether `value` lies inside the range (menus: between the smallest and largest entries).
    public func contains(_ value: Double) -> Bool { value >= minimum && value <= maximum }
}
