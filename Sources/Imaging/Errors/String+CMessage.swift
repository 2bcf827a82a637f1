extension String {
    /// The text a C library wrote into `buffer` (a message buffer the caller passed it), up to
    /// its first NUL or the end of the buffer, invalid UTF-8 repaired: never reads past `buffer`,
    /// as `String(cString:)` would when the library filled it without a terminator.
    package init(cMessage buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
