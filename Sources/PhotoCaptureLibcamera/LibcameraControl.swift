import CLibcamera

/// A control a libcamera camera accepts in its capture requests, as libcamera describes it
/// (`ExposureTime`, `AnalogueGain`, `Brightness`...): its type, range and default.
///
/// libcamera's controls are set per request, not on the device, so there is no current value
/// to read and nothing to set outside a capture. Encoded, it is `photocap controls --json`'s
/// object for the control.
public struct LibcameraControl: Sendable, Equatable, Encodable {
    /// What a value of the control is.
    public enum ValueType: String, Sendable, Encodable {
        /// True or false.
        case bool
        /// An unsigned 8-bit number.
        case byte
        /// A signed 32-bit number.
        case int32
        /// A signed 64-bit number.
        case int64
        /// A 32-bit floating-point number.
        case float
        /// Text.
        case string
        /// A rectangle of sensor pixels (`ScalerCrop`).
        case rectangle
        /// A width and height.
        case size
        /// A type this photocap does not know (libcamera added it later).
        case other
    }

    /// libcamera's name, e.g. `ExposureTime`.
    public let name: String
    /// libcamera's numeric id.
    public let id: UInt32
    /// What a value is.
    public let valueType: ValueType
    /// Whether a value is an array of ``valueType`` (`ColourGains`: two floats).
    public let isArray: Bool
    /// The lowest value, as text: a number in its shortest exact form (`-1`, `0.5`),
    /// `true`/`false`, or libcamera's text for other types (`(0, 0)/0x0`).
    public let minimum: String
    /// The highest value, as ``minimum`` writes it.
    public let maximum: String
    /// The value the pipeline uses when a request does not set it, as ``minimum`` writes it;
    /// nil when the pipeline gives none.
    public let defaultValue: String?

    /// A control from its parts (for tests).
    package init(name: String, id: UInt32, valueType: ValueType, isArray: Bool, minimum: String, maximum: String,
                 defaultValue: String?) {
        (self.name, self.id, self.valueType, self.isArray) = (name, id, valueType, isArray)
        (self.minimum, self.maximum, self.defaultValue) = (minimum, maximum, defaultValue)
    }

    /// The control as the shim lists it.
    init(_ info: pc_lc_control_info) {
        var info = info
        let types: [Int: ValueType] = [
            Int(PC_LC_TYPE_BOOL): .bool, Int(PC_LC_TYPE_BYTE): .byte, Int(PC_LC_TYPE_INT32): .int32,
            Int(PC_LC_TYPE_INT64): .int64, Int(PC_LC_TYPE_FLOAT): .float, Int(PC_LC_TYPE_STRING): .string,
            Int(PC_LC_TYPE_RECTANGLE): .rectangle, Int(PC_LC_TYPE_SIZE): .size,
        ]
        let defaultText = LibcameraResult.text(&info.default_value)
        self.init(name: LibcameraResult.text(&info.name), id: info.id, valueType: types[Int(info.type)] ?? .other,
                  isArray: info.is_array != 0, minimum: LibcameraResult.text(&info.minimum),
                  maximum: LibcameraResult.text(&info.maximum), defaultValue: defaultText.isEmpty ? nil : defaultText)
    }
}
