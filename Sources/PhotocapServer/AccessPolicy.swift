import HTTPTypes
import Hummingbird

/// Who may use the server, checked before any route: a middleware.
///
/// - With a token, every request carries it: state-changing ones in the `X-Photocap-Token`
///   header (or `Authorization: Bearer`), which a page of another site cannot set without the
///   browser asking first; a GET may give it as `?token=` too, so an `<img>` or an `EventSource`
///   of the page can load. No cookie is ever accepted.
/// - On a loopback address, the `Host` must be a loopback name: a page of another site that
///   points its own name at 127.0.0.1 (DNS rebinding) is refused.
/// - A state-changing request from a page of another origin is refused (`Origin` and
///   `Sec-Fetch-Site`), and a POST or PUT must say its body is JSON, which a plain HTML form cannot.
package struct AccessPolicy<Context: RequestContext>: RouterMiddleware {
    /// The token every request needs; nil: none.
    package let token: String?
    /// Whether the server listens on loopback only.
    package let isLoopback: Bool

    /// A policy requiring `token` (if any), for a server on a loopback address or not.
    package init(token: String?, isLoopback: Bool) {
        self.token = token
        self.isLoopback = isLoopback
    }

    package static var tokenHeader: HTTPField.Name { HTTPField.Name("X-Photocap-Token")! }
    package static var fetchSiteHeader: HTTPField.Name { HTTPField.Name("Sec-Fetch-Site")! }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let changesState = request.method != .get && request.method != .head
        if isLoopback {
            let host = request.head.authority ?? ""
            guard Self.isLoopbackHost(host) else {
                throw ServerError(.forbidden, "this server answers to 127.0.0.1, [::1] and localhost only, not '\(host)'")
            }
        }
        if let token {
            var given = request.headers[Self.tokenHeader]
            if given == nil, let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
                given = String(authorization.dropFirst("Bearer ".count))
            }
            if given == nil, !changesState, let query = request.uri.queryParameters["token"] { given = String(query) }
            guard let given else {
                throw ServerError(.unauthorized, changesState ? "this request needs the server's token in the X-Photocap-Token header"
                                                              : "this server needs its token: X-Photocap-Token header or ?token=")
            }
            guard Self.constantTimeEqual(given, token) else { throw ServerError(.unauthorized, "wrong token") }
        }
        if changesState {
            if request.headers[Self.fetchSiteHeader] == "cross-site" {
                throw ServerError(.forbidden, "requests from other sites are refused")
            }
            if let origin = request.headers[.origin], Self.hostPart(ofOrigin: origin) != request.head.authority?.lowercased() {
                throw ServerError(.forbidden, "requests from other origins are refused (Origin \(origin))")
            }
            if request.method == .post || request.method == .put,
               !(request.headers[.contentType] ?? "").lowercased().hasPrefix("application/json") {
                throw ServerError(.unsupportedMediaType, "the body must be JSON, sent as Content-Type: application/json")
            }
        }
        return try await next(request, context)
    }

    /// `127.0.0.1:8080` and the like: a loopback name, with or without a port.
    package static func isLoopbackHost(_ authority: String) -> Bool {
        let lowered = authority.lowercased()
        let name: Substring
        if lowered.hasPrefix("[") {
            name = lowered.prefix { $0 != "]" } + "]"
        } else {
            name = lowered.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        if name == "localhost" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// `host:port` of `http://host:port`.
    static func hostPart(ofOrigin origin: String) -> String {
        guard let range = origin.range(of: "://") else { return origin.lowercased() }
        return String(origin[range.upperBound...]).lowercased()
    }

    /// Compares without stopping at the first difference, so the time taken does not tell how
    /// much of a guess was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<min(x.count, y.count) { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
