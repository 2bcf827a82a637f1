import Foundation
import V4L2

/// A camera control (brightness, gain, exposure...) with its range and current value.
public struct CameraControl: Sendable, Equatable {
    /// The name as `photocap controls` spells it: `gain`, `sensor_flipped_horizontally`.
    public let key: String
    /// The driver's name, e.g. `Gain`.
    public let name: String
    /// `integer`, `integer64`, `boolean`, `menu`, `integer-menu`, `button`, `bitmask`,
    /// `string`, `class` or `other`.
    public let kind: String
    /// The V4L2 control ID.
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
    /// Menu entries as (value, label).
    public let menu: [(value: Int64, label: String)]
    /// The value cannot be set.
    public let isReadOnly: Bool
    /// The control has no effect right now (e.g. manual exposure under auto exposure).
    public let isInactive: Bool
    /// The value changes by itself (an auto algorithm's result).
    public let isVolatile: Bool
    let raw: V4L2Control

    init(_ control: V4L2Control, value: Int64?) {
        raw = control
        key = control.key
        name = control.name
        kind = control.kind == .integerMenu ? "integer-menu" : control.kind == .controlClass ? "class" : control.kind.rawValue
        id = control.id
        minimum = control.minimum
        maximum = control.maximum
        step = control.step
        defaultValue = control.defaultValue
        self.value = value
        menu = control.menuItems.map { ($0.value, $0.label) }
        isReadOnly = control.isReadOnly
        isInactive = control.isInactive
        isVolatile = control.isVolatile
    }

    /// The menu label of the current value, for menu controls.
    public var valueLabel: String? {
        guard let value else { return nil }
        return menu.first { $0.value == value }?.label
    }

    /// Compares everything but the menu tuples' labels' identity.
    public static func == (a: CameraControl, b: CameraControl) -> Bool { a.raw == b.raw && a.value == b.value }

    /// The integer for `text`: a number, a menu label or true/false, checked against the range.
    func parse(_ text: String) throws(PhotoCaptureError) -> Int64 {
        if isReadOnly { throw PhotoCaptureError(.invalidControl("\(key) is read-only")) }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
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
