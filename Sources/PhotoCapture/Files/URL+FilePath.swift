import FoundationEssentials

extension URL {
    /// The file system path of this `file:` URL, for the overloads that take a URL where the
    /// API takes a path; any other URL is refused with ``PhotoCaptureError/Code/notAFileURL(_:)``.
    func filePath() throws(PhotoCaptureError) -> String {
        guard isFileURL else { throw PhotoCaptureError(.notAFileURL(absoluteString)) }
        return path(percentEncoded: false)
    }
}
