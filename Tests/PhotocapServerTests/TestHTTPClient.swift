import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 over a socket to the server under test, one connection a request. (HummingbirdTesting
/// would bring AsyncHTTPClient, and with it BoringSSL to compile, for what these few lines do.)
/// Each request runs on a Dispatch thread, never on one of the few threads of Swift's
/// cooperative pool, which the server needs.
struct TestHTTPClient: Sendable {
    struct Response: Sendable {
        let status: Int
        /// Header names in lower case.
        let headers: [String: String]
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error { let reason: String }

    let port: Int

    func execute(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.executeBlocking(method, path, headers: headers, body: body) })
            }
        }
    }

    private func executeBlocking(_ method: String, _ path: String, headers: [String: String], body: String?) throws -> Response {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(reason: "socket") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(reason: "connect: \(errno)") }
        let payload = Array((body ?? "").utf8)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if body != nil || method == "POST" { head += "Content-Length: \(payload.count)\r\n" }
        let request = Array((head + "\r\n").utf8) + payload
        var offset = 0
        while offset < request.count {
            let written = request[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer (413) and close before reading everything.
            if written <= 0 { break }
            offset += written
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return try Self.parse(received)
    }

    static func parse(_ bytes: [UInt8]) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Failure(reason: "no response head in \(bytes.count) bytes")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n").map(String.init)
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw Failure(reason: "no status in \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = trimmed(line[line.index(after: colon)...])
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"] == "chunked" { body = dechunked(body) }
        return Response(status: status, headers: headers, body: body)
    }

    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while let lineEnd = bytes[index...].firstIndex(of: 10) {
            let sizeText = trimmed(String(decoding: bytes[index..<lineEnd], as: UTF8.self)[...])
            guard let size = Int(sizeText, radix: 16), size > 0, lineEnd + 1 + size <= bytes.count else { break }
            result += bytes[(lineEnd + 1)..<(lineEnd + 1 + size)]
            index = lineEnd + 1 + size + 2
            if index >= bytes.count { break }
        }
        return result
    }
}
