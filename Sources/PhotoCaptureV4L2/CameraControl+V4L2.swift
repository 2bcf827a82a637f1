import PhotoCaptureCore
import V4L2

extension CameraControl {
    /// `control` as the neutral type, holding `value`.
    init(_ control: V4L2Control, value: Int64?) {
        let kind: Kind = switch control.kind {
        case .integer: .integer
        case .integer64: .integer64
        case .boolean: .boolean
        case .menu: .menu
        case .integerMenu: .integerMenu
        case .button: .button
        case .bitmask: .bitmask
        case .string: .string
        case .controlClass: .controlClass
        case .other: .other
        }
        self.init(key: control.key, name: control.name, kind: kind, id: control.id, minimum: control.minimum,
                  maximum: control.maximum, step: control.step, defaultValue: control.defaultValue, value: value,
                  menu: control.menuItems.map { MenuEntry(value: $0.value, label: $0.label) },
                  isReadOnly: control.isReadOnly, isInactive: control.isInactive, isVolatile: control.isVolatile)
    }
}
