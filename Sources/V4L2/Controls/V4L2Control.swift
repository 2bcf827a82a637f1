import CV4L2

/// A device control as VIDIOC_QUERY_EXT_CTRL describes it.
package struct V4L2Control: Sendable, Equatable {
    /// The kinds of control photocap reads and writes.
    package enum Kind: String, Sendable {
        /// A signed integer in a range.
        case integer
        /// A 64-bit integer.
        case integer64
        /// On or off.
        case boolean
        /// One of named items.
        case menu
        /// One of numbered items.
        case integerMenu
        /// An action with no value.
        case button
        /// A bit mask.
        case bitmask
        /// Text.
        case string
        /// A heading for the controls that follow.
        case controlClass
        /// A compound or other type photocap does not handle.
        case other
    }

    /// The control's ID, e.g. 0x00980913 for gain.
    package let id: UInt32
    /// The driver's name, e.g. `Gain`.
    package let name: String
    /// The kind of value.
    package let kind: Kind
    /// The lowest value.
    package let minimum: Int64
    /// The highest value.
    package let maximum: Int64
    /// The step between values.
    package let step: UInt64
    /// The value after reset.
    package let defaultValue: Int64
    /// Menu items as (value, label) for menu and integer-menu controls.
    package let menuItems: [MenuItem]
    /// The raw V4L2_CTRL_FLAG_* bits.
    package let flags: UInt32

    /// An entry of a menu control.
    package struct MenuItem: Sendable, Equatable {
        /// The value that selects this entry.
        package let value: Int64
        /// Its label (the number, for integer menus).
        package let label: String
    }

    /// The name in the form `v4l2-ctl` and `photocap controls` use: lower case, words joined by
    /// underscores (`Gain` → `gain`, `Sensor Flipped Horizontally` → `sensor_flipped_horizontally`).
    package var key: String { Self.key(forName: name) }

    /// The key for a driver's control name.
    package static func key(forName name: String) -> String {
        var key = ""
        var pendingSeparator = false
        for character in name.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingSeparator, !key.isEmpty { key.append("_") }
                key.append(character)
                pendingSeparator = false
            } else {
                pendingSeparator = true
            }
        }
        return key
    }

    /// The value cannot be changed.
    package var isReadOnly: Bool { flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0 }
    /// The value can change without the app asking (an auto-exposure result, say).
    package var isVolatile: Bool { flags & UInt32(V4L2_CTRL_FLAG_VOLATILE) != 0 }
    /// The control has no effect right now (e.g. manual exposure while auto exposure is on).
    package var isInactive: Bool { flags & UInt32(V4L2_CTRL_FLAG_INACTIVE) != 0 }
    /// The control is disabled and must be skipped.
    package var isDisabled: Bool { flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0 }
    /// The control can only be written.
    package var isWriteOnly: Bool { flags & UInt32(V4L2_CTRL_FLAG_WRITE_ONLY) != 0 }
    /// Whether the value is one integer photocap can get and set.
    package var hasIntegerValue: Bool {
        switch kind {
        case .integer, .integer64, .boolean, .menu, .integerMenu, .bitmask: return !isWriteOnly
        default: return false
        }
    }

    init(_ raw: v4l2_query_ext_ctrl, menuItems: [MenuItem]) {
        id = raw.id
        name = String(cTuple: raw.name)
        kind = Self.kind(of: raw.type)
        minimum = raw.minimum
        maximum = raw.maximum
        step = raw.step
        defaultValue = raw.default_value
        flags = raw.flags
        self.menuItems = menuItems
    }

    static func kind(of type: UInt32) -> Kind {
        switch type {
        case V4L2_CTRL_TYPE_INTEGER.rawValue: return .integer
        case V4L2_CTRL_TYPE_INTEGER64.rawValue: return .integer64
        case V4L2_CTRL_TYPE_BOOLEAN.rawValue: return .boolean
        case V4L2_CTRL_TYPE_MENU.rawValue: return .menu
        case V4L2_CTRL_TYPE_INTEGER_MENU.rawValue: return .integerMenu
        case V4L2_CTRL_TYPE_BUTTON.rawValue: return .button
        case V4L2_CTRL_TYPE_BITMASK.rawValue: return .bitmask
        case V4L2_CTRL_TYPE_STRING.rawValue: return .string
        case V4L2_CTRL_TYPE_CTRL_CLASS.rawValue: return .controlClass
        default: return .other
        }
    }
}

/// Camera-class control IDs photocap reads.
package enum V4L2ControlID {
    /// `V4L2_CID_CAMERA_SENSOR_ROTATION`: the sensor's mounting rotation, counter-clockwise degrees.
    package static let cameraSensorRotation = UInt32(PC_V4L2_CID_CAMERA_SENSOR_ROTATION)
    /// `V4L2_CID_CAMERA_ORIENTATION`: front, back or external.
    package static let cameraOrientation = UInt32(PC_V4L2_CID_CAMERA_ORIENTATION)
    /// `V4L2_CID_EXPOSURE_AUTO`.
    package static let exposureAuto = UInt32(PC_V4L2_CID_EXPOSURE_AUTO)
    /// `V4L2_CID_EXPOSURE_ABSOLUTE`, in 100 µs units.
    package static let exposureAbsolute = UInt32(PC_V4L2_CID_EXPOSURE_ABSOLUTE)
    /// `V4L2_CID_AUTO_EXPOSURE_BIAS`, in 0.001 EV units.
    package static let autoExposureBias = UInt32(PC_V4L2_CID_AUTO_EXPOSURE_BIAS)
    /// `V4L2_CID_GAIN`.
    package static let gain = UInt32(PC_V4L2_CID_GAIN)
    /// `V4L2_CID_AUTOGAIN`: while on, `V4L2_CID_GAIN` is the automatic result (volatile, inactive).
    package static let autoGain = UInt32(PC_V4L2_CID_AUTOGAIN)
    /// `V4L2_CID_ANALOGUE_GAIN`.
    package static let analogueGain = UInt32(PC_V4L2_CID_ANALOGUE_GAIN)
    /// `V4L2_CID_FOCUS_AUTO` (`focus_automatic_continuous`): continuous autofocus on or off.
    package static let focusAuto = UInt32(PC_V4L2_CID_FOCUS_AUTO)
    /// `V4L2_CID_FOCUS_ABSOLUTE`: the lens position, in the driver's units.
    package static let focusAbsolute = UInt32(PC_V4L2_CID_FOCUS_ABSOLUTE)
    /// `V4L2_CID_AUTO_FOCUS_START`: a button that runs one autofocus scan.
    package static let autoFocusStart = UInt32(PC_V4L2_CID_AUTO_FOCUS_START)
    /// `V4L2_CID_AUTO_FOCUS_STATUS`: busy, reached or failed bits (read-only).
    package static let autoFocusStatus = UInt32(PC_V4L2_CID_AUTO_FOCUS_STATUS)
}

/// The bits of `V4L2_CID_AUTO_FOCUS_STATUS`.
package enum V4L2AutoFocusStatus {
    /// A scan is under way.
    package static let busy = Int64(PC_V4L2_AUTO_FOCUS_STATUS_BUSY)
    /// The last scan found focus.
    package static let reached = Int64(PC_V4L2_AUTO_FOCUS_STATUS_REACHED)
    /// The last scan failed.
    package static let failed = Int64(PC_V4L2_AUTO_FOCUS_STATUS_FAILED)
}

/// Where a camera faces (`V4L2_CID_CAMERA_ORIENTATION`).
package enum V4L2CameraLocation: Int64, Sendable {
    /// Faces the user (a front camera); its photos are mirrored like a mirror.
    case front = 0
    /// Faces away from the user.
    case back = 1
    /// An external camera.
    case external = 2
}
