import CLibcamera

/// What the shim's calls give back besides their PC_LC_* result (typed `int32_t` in its header,
/// so Swift compares them as they are): the messages and text fields it fills.
package enum LibcameraResult {
    /// A buffer for the shim's error message (`error`, `error_capacity`).
    package static func messageBuffer() -> [CChar] { [CChar](repeating: 0, count: 256) }

    /// The text of a NUL-terminated `char[N]` field of the shim's structures (a tuple in Swift).
    package static func text<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The message the shim wrote into `buffer`, up to its NUL.
    package static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
