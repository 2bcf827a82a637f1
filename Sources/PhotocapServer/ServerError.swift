import FoundationEssentials
import Hummingbird
import PhotocapCommands

/// A request the server refuses or could not serve: an HTTP status and a sentence, sent as
/// `{"error": "..."}`.
package struct ServerError: Error, Sendable, HTTPResponseError {
    /// The response's status.
    package let status: HTTPResponse.Status
    /// What went wrong, in the command line's words where it has them.
    package let message: String

    /// An error with `status` saying `message`.
    package init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The body: `{"error": message}`.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let text = (try? jsonText(["error": message])) ?? "{\"error\":\"unknown\"}"
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}
