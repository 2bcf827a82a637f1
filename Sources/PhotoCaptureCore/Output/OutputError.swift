/// An output added to a session failed in its own terms: the output, and its error as the cause.
///
/// ``PhotoCaptureError`` carries this for outputs defined above the core (PhotoCaptureVision's
/// metadata output and smart framing monitor), whose error types the core cannot name: the
/// cause stays typed, and an app casts ``underlying`` (to `FaceDetectionError`, say) for the
/// details. The one line a user reads is the cause's.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The output, by its type's name (`MetadataOutput`).
    public let output: String
    /// The output's own error, typed.
    public let underlying: any Error & Equatable

    /// A failure of `output` whose cause is `underlying`.
    public init(output: String, underlying: any Error & Equatable) {
        self.output = output
        self.underlying = underlying
    }

    /// The cause's line.
    public var description: String { String(describing: underlying) }

    /// Equal when the same output failed for equal causes (of the same type).
    public static func == (lhs: OutputError, rhs: OutputError) -> Bool {
        func equals<Cause: Equatable>(_ cause: Cause, _ other: any Error & Equatable) -> Bool {
            (other as? Cause) == cause
        }
        return lhs.output == rhs.output && equals(lhs.underlying, rhs.underlying)
    }
}
