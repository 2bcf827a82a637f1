import ArgumentParser

/// `--listen`'s `ADDRESS:PORT` (`[ADDRESS]:PORT` for IPv6), and whether only this machine can
/// reach it.
package struct ListenAddress: Sendable, Equatable {
    /// The host name or address, without brackets.
    package let host: String
    /// The port; 0 asks the system for a free one.
    package let port: Int

    /// The address `text` names, or the refusal.
    package init(parsing text: String) throws(ValidationError) {
        let refusal = ValidationError("--listen takes ADDRESS:PORT (e.g. 127.0.0.1:8080 or [::1]:8080), got '\(text)'")
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw refusal
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "[" || $0 == "]" }) else { throw refusal }
        self.host = host
        self.port = port
    }

    /// Whether the address is this machine's loopback (127.0.0.0/8, ::1 or localhost): nothing
    /// else can connect, so no token is needed by default.
    package var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.split(separator: ".").first == "127" && host.split(separator: ".").count == 4
    }
}
