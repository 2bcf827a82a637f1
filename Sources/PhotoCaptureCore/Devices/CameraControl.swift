import FoundationEssentials

/// A camera control (brightness, gain, exposure...) with its range and current value.
public struct CameraControl: Sendable, Equatable {
    /// What a control holds, as the camera describes it.
    public enum Kind: String, Sendable, CaseIterable {
        /// A signed integer in a range.
        case integer
        /// A 64-bit integer.
        case integer64
        /// On or off.
        case boolean
        /// One of named entries.
        case menu
        /// One of numbered entries.
        case integerMenu = "integer-menu"
        /// An action with no value: any value presses it.
        case button
        /// A bit mask.
        case bitmask
        /// Text.
        case string
        /// A heading for the controls that follow, not a control.
        case controlClass = "class"
        /// A compound or other kind photocap does not handle.
        case other
    }

    /// An entry of a menu control.
    package struct MenuEntry: Sendable, Equatable {
        let value: Int64
        let label: String

        /// The entry for `value`, labelled `label`.
        package init(value: Int64, label: String) {
            (self.value, self.label) = (value, label)
        }
    }

    /// The name as `photocap controls` spells it: `gain`, `sensor_flipped_horizontally`.
    public let key: String
    /// The driver's name, e.g. `Gain`.
    public let name: String
    /// What the control holds.
    public let controlKind: Kind
    /// `integer`, `integer64`, `boolean`, `menu`, `integer-menu`, `button`, `bitmask`,
    /// `string`, `class` or `other`: ``controlKind``'s raw value.
    @available(*, deprecated, message: "use controlKind (its rawValue is this name)")
    public var kind: String { controlKind.rawValue }
    /// The camera's ID for the control (a V4L2 control ID).
    public let id: UInt32
    /// Lowest value.
    public let minimum: Int64
    /// Highest value.
    public let maximum: Int64
    /// Step between values.
    public let step: UInt64
    /// Value after reset.
    public let defaultValue: Int64
    /// The current value, when it is a readable integer.
    public let value: Int64?
    private let menuEntries: [MenuEntry]
    /// Menu entries as (value, label).
    public var menu: [(value: Int64, label: String)] { menuEntries.map { ($0.value, $0.label) } }
    /// The value cannot be set.
    public let isReadOnly: Bool
    /// The control has no effect right now (e.g. manual exposure under auto exposure).
    public let isInactive: Bool
    /// The value changes by itself (an auto algorithm's result).
    public let isVolatile: Bool

    /// A control as a backend describes it; `value` is nil where it has no readable integer.
    package init(key: String, name: String, kind: Kind, id: UInt32, minimum: Int64, maximum: Int64, step: UInt64,
         defaultValue: Int64, value: Int64?, menu: [MenuEntry], isReadOnly: Bool, isInactive: Bool, isVolatile: Bool) {
        (self.key, self.name, controlKind, self.id) = (key, name, kind, id)
        (self.minimum, self.maximum, self.step, self.defaultValue, self.value) = (minimum, maximum, step, defaultValue, value)
        menuEntries = menu
        (self.isReadOnly, self.isInactive, self.isVolatile) = (isReadOnly, isInactive, isVolatile)
    }

    /// This control holding `value` instead.
    package func with(value: Int64?) -> CameraControl {
        CameraControl(key: key, name: name, kind: controlKind, id: id, minimum: minimum, maximum: maximum, step: step,
                      defaultValue: defaultValue, value: value, menu: menuEntries, isReadOnly: isReadOnly,
                      isInactive: isInactive, isVolatile: isVolatile)
    }

    /// The menu label of the current value, for menu controls.
    public var valueLabel: String? {
        guard let value else { return nil }
        return menu.first { $0.value == value }?.label
    }

    /// The integer for `text`: a number, a menu label or true/false, checked against the range.
    func parse(_ text: String) throws(PhotoCaptureError) -> Int64 {
        if isReadOnly { throw PhotoCaptureError(.invalidControl("\(key) is read-only")) }
        let trimmed = text.trimmingWhitespace
        var value: Int64?
        if controlKind == .button {
            value = 1
        } else if let number = Int64(trimmed) {
            value = number
        } else if controlKind == .boolean {
            value = ["true", "on", "yes"].contains(trimmed.lowercased()) ? 1
                : ["false", "off", "no"].contains(trimmed.lowercased()) ? 0 : nil
        } else {
            value = menu.first { $0.label.lowercased() == trimmed.lowercased() }?.value
        }
        guard let value else {
            let choices = menu.isEmpty ? "a number from \(minimum) to \(maximum)"
                : menu.map { "\($0.value) (\($0.label))" }.joined(separator: ", ")
            throw PhotoCaptureError(.invalidControl("'\(text)' is not a value of \(key): use \(choices)"))
        }
        guard controlKind == .button || controlKind == .bitmask || (minimum...maximum).contains(value) else {
            throw PhotoCaptureError(.invalidControl("\(key) must be from \(minimum) to \(maximum), got \(value)"))
        }
        if !menu.isEmpty, !menu.contains(where: { $0.value == value }) {
            throw PhotoCaptureError(.invalidControl("\(value) is not an entry of \(key)'s menu"))
        }
        return value
    }
}
