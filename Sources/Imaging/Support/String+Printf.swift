import Glibc

extension String {
    /// `format` filled in by C's `vsnprintf`, as Foundation's `String(format:)` does for numbers
    /// (`%.2f`, `%+.2f`, `%g`, `%08x`, `%016llx`): the same text, without loading Foundation
    /// (and with it ICU) into every process that prints a number. Arguments are C values only
    /// (integers and floating point); `%@` and `%s` are not supported.
    package init(printf format: String, _ arguments: any CVarArg...) {
        // The first pass measures, the second writes; a va_list is used once each.
        let length = Int(withVaList(arguments) { vsnprintf(nil, 0, format, $0) })
        guard length > 0 else {
            self = ""
            return
        }
        self.init(unsafeUninitializedCapacity: length + 1) { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                _ = withVaList(arguments) { vsnprintf(text.baseAddress, length + 1, format, $0) }
            }
            return length
        }
    }
}
