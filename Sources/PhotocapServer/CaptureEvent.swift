import FoundationEssentials
import PhotocapCommands

/// One of the photo delegate's callbacks, as the event stream sends it.
package struct CaptureEvent: Sendable, Encodable {
    /// The callback: `willBeginCapture`, `willCapturePhoto`, `didCapturePhoto`,
    /// `didFinishProcessingPhoto` or `didFinishCapture`; `queued` when a request waits.
    package let type: String
    /// The request's uniqueID.
    package let uniqueID: Int64
    /// Milliseconds since the request reached the server.
    package let elapsedMs: Double
    /// The photo's ID, on `didFinishProcessingPhoto` with a photo.
    package var photoID: String?
    /// The failure, on a failed `didFinishProcessingPhoto` or `didFinishCapture`.
    package var error: String?

    /// An event of `type` for `uniqueID`, `elapsed` after the request arrived.
    package init(_ type: String, uniqueID: Int64, elapsed: Duration, photoID: String? = nil, error: String? = nil) {
        self.type = type
        self.uniqueID = uniqueID
        self.elapsedMs = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        self.photoID = photoID
        self.error = error
    }

    /// The event as one line of JSON.
    func jsonLine() throws -> String { try jsonText(self) }
}
