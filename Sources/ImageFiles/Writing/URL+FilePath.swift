import FoundationEssentials

extension URL {
    /// The file system path of this `file:` URL, for the overloads that take a URL where the
    /// API takes a path; any other URL is refused with ``ImageFileError/Code/notAFileURL(_:)``.
    package func filePath() throws(ImageFileError) -> String {
        guard isFileURL else { throw ImageFileError(.notAFileURL(absoluteString)) }
        return path(percentEncoded: false)
    }
}
