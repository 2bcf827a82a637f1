import FoundationEssentials
import V4L2

/// A camera control (brightness, gain, exposure...) with its range and current value.
public struct CameraControl: Sendable, Equatable {
    /// The name as `photocap controls` spells it: `gain`, `sensor_flipped_horizontally`.
    public var key: String { raw.key }
    /// The driver's name, e.g. `Gain`.
    public var name: String { raw.name }
    /// `integer`, `integer64`, `boolean`, `menu`, `integer-menu`, `button`, `bitmask`,
    /// `string`, `class` or `other`.
    public var kind: String {
        switch raw.kind {
        case .integerMenu: return "integer-menu"
        case .controlClass: return "class"
        default: return raw.kind.rawValue
        }
    }
    /// The V4L2 control ID.
    public var id: UInt32 { raw.id }
    /// Lowest value.
    public var minimum: Int64 { raw.minimum }
    /// Highest value.
    public var maximum: Int64 { raw.maximum }
    /// Step between values.
    public var step: UInt64 { raw.step }
    /// Value after reset.
    public var defaultValue: Int64 { raw.defaultValue }
    /// The current value, when it is a readable integer.
    public let value: Int64?
    /// Menu entries as (value, label).
    public var menu: [(value: Int64, label: String)] { raw.menuItems.map { ($0.value, $0.label) } }
    /// The value cannot be set.
    public var isReadOnly: Bool { raw.isReadOnly }
    /// The control has no effect right now (e.g. manual exposure under auto exposure).
    public var isInactive: Bool { raw.isInactive }
    /// The value changes by itself (an auto algorithm's result).
    public var isVolatile: Bool { raw.isVolatile }
    let raw: V4L2Control

    init(_ control: V4L2Control, value: Int64?) {
        raw = control
        self.value = value
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
        if kind == "button" {
            value = 1
        } else if let number = Int64(trimmed) {
            value = number
        } else if kind == "boolean" {
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
        guard kind == "button" || kind == "bitmask" || (minimum...maximum).contains(value) else {
            throw PhotoCaptureError(.invalidControl("\(key) must be from \(minimum) to \(maximum), got \(value)"))
        }
        if !menu.isEmpty, !menu.contains(where: { $0.value == value }) {
            throw PhotoCaptureError(.invalidControl("\(value) is not an entry of \(key)'s menu"))
        }
        return value
    }
}
