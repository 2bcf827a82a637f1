import CLibcamera

/// The shim's PC_LC_* result codes as Swift constants, so the mapping of
/// ``LibcameraError/init(result:call:camera:message:requested:)`` reads as the header does.
package enum LibcameraResult {
    package static let ok = Int32(PC_LC_OK)
    package static let error = Int32(PC_LC_ERROR)
    package static let notFound = Int32(PC_LC_NOT_FOUND)
    package static let busy = Int32(PC_LC_BUSY)
    package static let invalid = Int32(PC_LC_INVALID)
    package static let noBuffer = Int32(PC_LC_NO_BUFFER)
    package static let removed = Int32(PC_LC_REMOVED)
    package static let timeout = Int32(PC_LC_TIMEOUT)
}

extension LibcameraResult {
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
